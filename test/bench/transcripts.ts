import { readFileSync } from 'node:fs';
import { parseTranscript } from '../../main/areas/clips/parse.js';
import { segmentSentences } from '../../main/areas/clips/sentences.js';

/** Generated transcripts for the clips bench and the clip bounds tests. */

const TARGET_WORDS = 30_000;
const HOURS = 3;

/**
 * A three-hour, ~30,000-word transcript: runs of 20–60 consecutive sentences taken from the
 * three marked fixtures (so passages stay coherent and topics recur), in a seeded order, with
 * speakers kept and times laid out evenly over three hours. Same seed, same transcript.
 */
export function threeHourTranscript(format: 'stamped' | 'srt' | 'plain', seed = 7): string {
  const dir = new URL('../fixtures/transcripts/', import.meta.url);
  const sources = ['interview.txt', 'solo.srt', 'panel.vtt'].map((file) =>
    segmentSentences(parseTranscript(readFileSync(new URL(file, dir), 'utf8')).cues),
  );
  let state = seed;
  const random = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const picked: Array<{ text: string; speaker: string | null; words: number }> = [];
  let words = 0;
  while (words < TARGET_WORDS) {
    const source = sources[Math.floor(random() * sources.length)]!;
    const length = 20 + Math.floor(random() * 40);
    const from = Math.floor(random() * Math.max(1, source.length - length));
    for (const sentence of source.slice(from, from + length)) {
      picked.push(sentence);
      words += sentence.words;
    }
  }
  const secondsPerWord = (HOURS * 3600) / words;
  const lines: string[] = [];
  let t = 0;
  picked.forEach((sentence, i) => {
    const start = t;
    t += sentence.words * secondsPerWord;
    const label = sentence.speaker ? `${sentence.speaker.split(' ')[0]!.toUpperCase()}: ` : '';
    if (format === 'stamped') lines.push(`[${clock(start)}] ${label}${sentence.text}`);
    else if (format === 'plain') lines.push(`${label}${sentence.text}`);
    else
      lines.push(
        `${i + 1}\n${clock(start)},${ms(start)} --> ${clock(t)},${ms(t)}\n${label}${sentence.text}\n`,
      );
  });
  return lines.join('\n');
}

const clock = (s: number) =>
  [Math.floor(s / 3600), Math.floor((s % 3600) / 60), Math.floor(s % 60)]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
const ms = (s: number) => String(Math.floor((s % 1) * 1000)).padStart(3, '0');
/** A stamped transcript of about `chars` characters: the three hours again and again, times moving on. */
export function stampedTranscriptOf(chars: number): string {
  const lines = threeHourTranscript('stamped').split('\n');
  const out: string[] = [];
  let length = 0;
  for (let hours = 0; length < chars; hours += HOURS) {
    for (const line of lines) {
      const moved = line.replace(
        /^\[(\d+)(:\d+:\d+\])/,
        (_, h: string, rest: string) => `[${String(Number(h) + hours).padStart(2, '0')}${rest}`,
      );
      out.push(moved);
      length += moved.length + 1;
      if (length >= chars) break;
    }
  }
  return out.join('\n');
}
