import { stringifySync, type NodeList } from 'subtitle';
import { buildCaptions, type Caption, type CaptionRules } from '../../../shared/caption-rules.js';
import type { KeptSentence } from './kept-sentences.js';

export type { Caption } from '../../../shared/caption-rules.js';

/**
 * The captions of sentences [from, to], re-timed so the clip starts at 0 (DESIGN §6.6), by the
 * caption rules (shared/caption-rules.ts); none runs past the clip's out. `frame`: the clip as the
 * timeline cuts it (seconds of the take, on whole frames), when it differs from its sentences'.
 */
export function clipCaptions(
  sentences: readonly KeptSentence[],
  from: number,
  to: number,
  rules: CaptionRules,
  frame: { in: number; out: number } = { in: sentences[from]!.start, out: sentences[to]!.end },
): Caption[] {
  const at = (seconds: number) => Math.min(Math.max(0, seconds - frame.in), frame.out - frame.in);
  return buildCaptions(
    sentences.slice(from, to + 1).map((sentence) => ({
      start: at(sentence.start),
      end: at(sentence.end),
      text: sentence.text,
      speaker: sentence.speaker ?? null,
    })),
    rules,
    { until: frame.out - frame.in },
  );
}

/** `-->` in a caption's text would read as a timing line. */
const noArrow = (text: string) => text.replace(/-->/g, '→');

/**
 * SRT has no escapes, and its readers take `<x…>` and `{\…}` as formatting (FFmpeg drops `<5 and x>`
 * as an unknown tag): a zero-width space after `<` or `{` keeps such speech as it was said.
 */
const srtText = (text: string) =>
  noArrow(text)
    .replace(/<(?=[\w/])/g, '<\u200b')
    .replace(/\{(?=\\)/g, '{\u200b');

/** WebVTT cue text is markup: &, < and > written as entities. */
const vttText = (text: string) =>
  noArrow(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function nodes(captions: readonly Caption[], text: (t: string) => string, offsetS: number): NodeList {
  return captions.map((caption) => ({
    type: 'cue',
    data: {
      start: Math.round((caption.start + offsetS) * 1000),
      end: Math.round((caption.end + offsetS) * 1000),
      text: text(caption.text),
    },
  }));
}

/** `offsetS`: where 0 falls on the file's clock (3600 for a timeline that starts at 01:00:00:00). */
export function toSrt(captions: readonly Caption[], offsetS = 0): string {
  return stringifySync(nodes(captions, srtText, offsetS), { format: 'SRT' });
}

export function toVtt(captions: readonly Caption[], offsetS = 0): string {
  return stringifySync(nodes(captions, vttText, offsetS), { format: 'WebVTT' });
}
