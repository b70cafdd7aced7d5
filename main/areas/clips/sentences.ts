import { WORDS_PER_SECOND, type Cue } from './parse.js';

/** A sentence with its time span (seconds) and speaker: the unit clips start and end on. */
export interface Sentence {
  index: number;
  text: string;
  start: number;
  end: number;
  speaker: string | null;
  words: number;
  /** Audience reactions (`[laughter]`, `[applause]`) inside the sentence's cues. */
  reactions: number;
}

interface TimedWord {
  text: string;
  start: number;
  end: number;
  speaker: string | null;
  /** Last word of its cue (a caption or line boundary). */
  cueEnd: boolean;
  /** Silence before this word, seconds. */
  gapBefore: number;
  reactions: number;
}

const ABBREVIATIONS = new Set([
  'mr.',
  'mrs.',
  'ms.',
  'dr.',
  'prof.',
  'st.',
  'sr.',
  'jr.',
  'vs.',
  'etc.',
  'e.g.',
  'i.e.',
  'inc.',
  'ltd.',
  'co.',
  'corp.',
  'no.',
  'approx.',
  'dept.',
  'est.',
  'fig.',
  'mt.',
  'u.s.',
  'u.k.',
  'a.m.',
  'p.m.',
]);
const TERMINAL = /[.!?…]["'”’)\]]*$/;
/** Unpunctuated speech (auto captions): a sentence is cut at a caption end past this many words. */
const SOFT_MAX_WORDS = 40;
const HARD_MAX_WORDS = 60;
const PAUSE_S = 1.5;

/** Splits cues into sentences; times are interpolated within cues, or estimated at 150 wpm. */
export function segmentSentences(cues: readonly Cue[]): Sentence[] {
  const words = timedWords(cues);
  const sentences: Sentence[] = [];
  let current: TimedWord[] = [];
  const flush = () => {
    if (current.length > 0) sentences.push(toSentence(current, sentences.length));
    current = [];
  };
  words.forEach((word, i) => {
    const previous = current.at(-1);
    if (previous && previous.speaker !== word.speaker) flush();
    else if (previous && current.length >= 8 && word.gapBefore >= PAUSE_S && !/[,;:]$/.test(previous.text))
      flush();
    current.push(word);
    const next = words[i + 1];
    if (endsSentence(word, next) || current.length >= HARD_MAX_WORDS) flush();
    else if (current.length >= SOFT_MAX_WORDS && (word.cueEnd || /[,;:]$/.test(word.text))) flush();
  });
  flush();
  return sentences;
}

function endsSentence(word: TimedWord, next: TimedWord | undefined): boolean {
  if (!TERMINAL.test(word.text)) return false;
  const bare = word.text.toLowerCase().replace(/["'”’)\]]+$/, '');
  if (ABBREVIATIONS.has(bare) || /^[a-z]\.$/i.test(bare)) return false;
  if (!next) return true;
  // "... and then" or "e.g. the": a full stop followed by a lower-case word is not an end.
  if (/[.…]$/.test(bare) && /^[a-z]/.test(next.text)) return false;
  return true;
}

function timedWords(cues: readonly Cue[]): TimedWord[] {
  const out: TimedWord[] = [];
  let speaker: string | null = null;
  let clock = 0;
  for (const cue of cues) {
    speaker = cue.speaker ?? speaker;
    const tokens = [...cue.text.matchAll(/\S+/g)];
    if (tokens.length === 0) continue;
    const timed = cue.start !== null && cue.end !== null;
    const start = timed ? cue.start! : clock;
    const end = timed ? Math.max(cue.end!, start) : start + tokens.length / WORDS_PER_SECOND;
    const length = cue.text.length;
    const previousEnd = out.at(-1)?.end ?? start;
    tokens.forEach((token, k) => {
      // Timed cues: by position in the text (long words take longer); estimated: word by word.
      const from = timed ? start + ((end - start) * token.index) / length : start + k / WORDS_PER_SECOND;
      const to = timed
        ? start + ((end - start) * (token.index + token[0].length)) / length
        : from + 1 / WORDS_PER_SECOND;
      out.push({
        text: token[0],
        start: from,
        end: to,
        speaker,
        cueEnd: k === tokens.length - 1,
        gapBefore: k === 0 ? Math.max(0, start - previousEnd) : 0,
        reactions: k === tokens.length - 1 ? cue.reactions : 0,
      });
    });
    clock = end;
  }
  return out;
}

function toSentence(words: readonly TimedWord[], index: number): Sentence {
  const first = words[0]!;
  const last = words.at(-1)!;
  return {
    index,
    text: words.map((w) => w.text).join(' '),
    start: first.start,
    end: last.end,
    speaker: first.speaker,
    words: words.filter((w) => /[\p{L}\p{N}]/u.test(w.text)).length,
    reactions: words.reduce((sum, w) => sum + w.reactions, 0),
  };
}
