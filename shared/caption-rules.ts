/**
 * Captions people can read (issue #39.3), as one pure function for the exports and for captions
 * burned into renders: at most two lines of `lineChars` (42; 32 burned into 9:16 and 1:1), no cue
 * under 5/6 s (a one-word sentence or a leftover word joins its neighbour) nor over 7 s, at most
 * 20 characters a second where the speech leaves room (a cue may run up to 0.5 s into the silence
 * after it, or join the words said next to it; faster speech is counted by captionStats), a word longer than a line broken across
 * lines, and the speaker's label as a prefix when the speaker changes.
 */
export interface CaptionRules {
  /** Characters per line. */
  lineChars: number;
  maxLines: number;
  minSeconds: number;
  maxSeconds: number;
  maxCharsPerSecond: number;
  /** How far a cue may run into the silence after it to be read at maxCharsPerSecond. */
  gapExtensionSeconds: number;
  /** `HOST: …` when the speaker changes. */
  speakerLabels: boolean;
}

export const LINE_CHARS = 42;
/** Lines of captions burned into 9:16 and 1:1 renders. */
export const BURNED_IN_LINE_CHARS = 32;

export function captionRules(overrides: Partial<CaptionRules> = {}): CaptionRules {
  return {
    lineChars: LINE_CHARS,
    maxLines: 2,
    minSeconds: 5 / 6,
    maxSeconds: 7,
    maxCharsPerSecond: 20,
    gapExtensionSeconds: 0.5,
    speakerLabels: true,
    ...overrides,
  };
}

/** A sentence as said: seconds, its words, who said it (null when the transcript does not say). */
export interface CaptionSentence {
  start: number;
  end: number;
  text: string;
  speaker: string | null;
}

/** A cue: seconds, text with `\n` between its lines. */
export interface Caption {
  start: number;
  end: number;
  text: string;
}

interface Word {
  text: string;
  start: number;
  end: number;
  speaker: string | null;
  sentenceEnd: boolean;
  /** A piece of a word too long for a line: follows the previous piece without a space. */
  glued: boolean;
}

interface Cue {
  words: Word[];
  start: number;
  end: number;
}

/** A label longer than this is cut: it must leave room for words on its line. */
const LABEL_CHARS = 20;
const EPSILON = 1e-9;

/**
 * The captions of sentences (seconds on any clock), in order. `until`: no cue ends after it (the
 * clip's out); `speaker`: who spoke just before the first sentence (no label when it is the same).
 */
export function buildCaptions(
  sentences: readonly CaptionSentence[],
  rules: CaptionRules = captionRules(),
  options: { until?: number; speaker?: string | null } = {},
): Caption[] {
  const until = options.until ?? Infinity;
  const before = options.speaker ?? null;
  const layout = (words: readonly Word[], previous: string | null) => layoutLines(words, previous, rules);
  const packed = packCues(toWords(sentences, rules.lineChars), before, rules, layout);
  const cues = joinFastCues(joinShortCues(packed, before, rules, layout), before, rules, layout);
  let speaker = before;
  const texts = cues.map((cue) => {
    const text = layout(cue.words, speaker)!.join('\n');
    speaker = lastSpeaker(cue.words, speaker);
    return text;
  });
  retime(cues, texts, rules, until);
  return cues.map((cue, i) => ({ start: cue.start, end: cue.end, text: texts[i]! }));
}

/** How the captions keep the rules: cues, under minSeconds, the shortest, over maxCharsPerSecond. */
export function captionStats(captions: readonly Caption[], rules: CaptionRules = captionRules()) {
  const seconds = captions.map((caption) => caption.end - caption.start);
  return {
    cues: captions.length,
    underMin: seconds.filter((s) => s < rules.minSeconds - EPSILON).length,
    shortestS: seconds.length > 0 ? Math.min(...seconds) : null,
    overCps: captions.filter(
      (caption, i) => readingChars(caption.text) / seconds[i]! > rules.maxCharsPerSecond + EPSILON,
    ).length,
    overMax: seconds.filter((s) => s > rules.maxSeconds + EPSILON).length,
  };
}

/** Characters read: the text without its line breaks. */
const readingChars = (text: string) => text.replace(/\n/g, '').length;

function toWords(sentences: readonly CaptionSentence[], lineChars: number): Word[] {
  const words: Word[] = [];
  for (const sentence of sentences) {
    const text = sentence.text;
    const tokens = [...text.matchAll(/\S+/g)];
    const seconds = Math.max(0, sentence.end - sentence.start);
    tokens.forEach((token, k) => {
      const at = (offset: number) => sentence.start + (seconds * offset) / Math.max(1, text.length);
      const pieces = token[0].match(new RegExp(`.{1,${lineChars}}`, 'gu')) ?? [token[0]];
      let offset = token.index;
      pieces.forEach((piece, p) => {
        words.push({
          text: piece,
          start: at(offset),
          end: at(offset + piece.length),
          speaker: sentence.speaker,
          sentenceEnd: k === tokens.length - 1 && p === pieces.length - 1,
          glued: p > 0,
        });
        offset += piece.length;
      });
    });
  }
  return words;
}

type Layout = (words: readonly Word[], previousSpeaker: string | null) => string[] | null;

/**
 * The lines of a cue, or null when its words do not fit in maxLines. A new speaker starts a line
 * (with the label when labels are on); one speaker's two lines are balanced.
 */
function layoutLines(words: readonly Word[], previous: string | null, rules: CaptionRules): string[] | null {
  const segments: Array<{ label: string | null; words: Word[] }> = [];
  let speaker = previous;
  for (const word of words) {
    const changed = word.speaker !== null && word.speaker !== speaker;
    if (changed || segments.length === 0) {
      const label = changed && rules.speakerLabels ? `${word.speaker!.slice(0, LABEL_CHARS)}:` : null;
      segments.push({ label, words: [] });
    }
    segments.at(-1)!.words.push(word);
    speaker = word.speaker ?? speaker;
  }
  const lines: string[] = [];
  for (const segment of segments) {
    const tokens = [
      ...(segment.label ? [{ text: segment.label, glued: false }] : []),
      ...segment.words.map((word) => ({ text: word.text, glued: word.glued })),
    ];
    const wrapped = wrap(tokens, rules.lineChars);
    lines.push(
      ...(segments.length === 1 && wrapped.length === 2 ? balance(tokens, rules.lineChars) : wrapped),
    );
    if (lines.length > rules.maxLines) return null;
  }
  return lines;
}

interface Token {
  text: string;
  glued: boolean;
}

const joinTokens = (tokens: readonly Token[]) =>
  tokens.map((token, i) => (i > 0 && !token.glued ? ` ${token.text}` : token.text)).join('');

function wrap(tokens: readonly Token[], lineChars: number): string[] {
  const lines: string[] = [];
  let line: Token[] = [];
  for (const token of tokens) {
    if (line.length > 0 && joinTokens([...line, token]).length > lineChars) {
      lines.push(joinTokens(line));
      line = [{ ...token, glued: false }];
    } else line.push(line.length === 0 ? { ...token, glued: false } : token);
  }
  if (line.length > 0) lines.push(joinTokens(line));
  return lines;
}

/** Two lines split where the longer is shortest. */
function balance(tokens: readonly Token[], lineChars: number): string[] {
  let best: string[] | null = null;
  for (let at = 1; at < tokens.length; at++) {
    const first = joinTokens(tokens.slice(0, at));
    const second = joinTokens([{ ...tokens[at]!, glued: false }, ...tokens.slice(at + 1)]);
    if (first.length > lineChars || second.length > lineChars) continue;
    if (!best || Math.max(first.length, second.length) < Math.max(best[0]!.length, best[1]!.length))
      best = [first, second];
  }
  return best ?? wrap(tokens, lineChars);
}

const span = (words: readonly Word[]) => words.at(-1)!.end - words[0]!.start;
const lastSpeaker = (words: readonly Word[], before: string | null) =>
  words.reduce<string | null>((speaker, word) => word.speaker ?? speaker, before);

/** Words into cues: a cue ends with a sentence or a speaker once it lasts minSeconds, or when full. */
function packCues(words: readonly Word[], before: string | null, rules: CaptionRules, layout: Layout): Cue[] {
  const cues: Cue[] = [];
  let current: Word[] = [];
  let speaker = before;
  const flush = () => {
    if (current.length === 0) return;
    cues.push({ words: current, start: current[0]!.start, end: current.at(-1)!.end });
    speaker = lastSpeaker(current, speaker);
    current = [];
  };
  for (const word of words) {
    const last = current.at(-1);
    if (last) {
      const boundary = last.sentenceEnd || (word.speaker !== null && word.speaker !== last.speaker);
      if (boundary && span(current) >= rules.minSeconds) flush();
      else if (!layout([...current, word], speaker) || word.end - current[0]!.start > rules.maxSeconds)
        flush();
    }
    current.push(word);
  }
  flush();
  return cues;
}

/** A cue shorter than minSeconds joins a neighbour it fits with, or takes words from the next. */
function joinShortCues(cues: Cue[], before: string | null, rules: CaptionRules, layout: Layout): Cue[] {
  const speakerBefore = (i: number) => (i === 0 ? before : lastSpeaker(cues[i - 1]!.words, before));
  const fits = (words: readonly Word[], i: number) =>
    span(words) <= rules.maxSeconds && layout(words, speakerBefore(i)) !== null;
  for (let i = 0; i < cues.length; i++) {
    const cue = cues[i]!;
    if (span(cue.words) >= rules.minSeconds) continue;
    const previous = cues[i - 1];
    const next = cues[i + 1];
    const withPrevious = previous ? [...previous.words, ...cue.words] : null;
    const withNext = next ? [...cue.words, ...next.words] : null;
    const gapBefore = previous ? cue.start - previous.end : Infinity;
    const gapAfter = next ? next.start - cue.end : Infinity;
    const order: Array<'previous' | 'next'> =
      gapBefore <= gapAfter ? ['previous', 'next'] : ['next', 'previous'];
    let joined = false;
    for (const side of order) {
      if (side === 'previous' && withPrevious && fits(withPrevious, i - 1)) {
        cues.splice(i - 1, 2, toCue(withPrevious));
        i -= 2;
        joined = true;
        break;
      }
      if (side === 'next' && withNext && fits(withNext, i)) {
        cues.splice(i, 2, toCue(withNext));
        i -= 1;
        joined = true;
        break;
      }
    }
    if (joined || !next) continue;
    // Too full to join: take the next cue's first words while it stays long enough.
    const words = [...cue.words];
    const rest = [...next.words];
    while (span(words) < rules.minSeconds && rest.length > 1) {
      const candidate = [...words, rest[0]!];
      if (!fits(candidate, i) || span(rest.slice(1)) < rules.minSeconds) break;
      words.push(rest.shift()!);
    }
    if (words.length > cue.words.length) cues.splice(i, 2, toCue(words), toCue(rest));
  }
  return cues;
}

const toCue = (words: Word[]): Cue => ({ words, start: words[0]!.start, end: words.at(-1)!.end });

/**
 * A cue faster than maxCharsPerSecond joins a neighbour said right after or before it when the two
 * fit in one cue that is not: fast speech next to slow is read at the pace of both.
 */
function joinFastCues(cues: Cue[], before: string | null, rules: CaptionRules, layout: Layout): Cue[] {
  const speakerBefore = (i: number) => (i === 0 ? before : lastSpeaker(cues[i - 1]!.words, before));
  const pace = (words: readonly Word[], i: number) => {
    const lines = span(words) <= rules.maxSeconds ? layout(words, speakerBefore(i)) : null;
    return lines ? lines.join('').length / Math.max(span(words), EPSILON) : Infinity;
  };
  // Across a silence the cue is shown longer instead (retime): joining would show words early.
  const close = (a: Cue, b: Cue) => b.start - a.end <= rules.gapExtensionSeconds;
  for (let i = 0; i < cues.length; i++) {
    const cue = cues[i]!;
    if (pace(cue.words, i) <= rules.maxCharsPerSecond) continue;
    const previous = cues[i - 1];
    const next = cues[i + 1];
    const best = [
      ...(previous && close(previous, cue) ? [{ at: i - 1, words: [...previous.words, ...cue.words] }] : []),
      ...(next && close(cue, next) ? [{ at: i, words: [...cue.words, ...next.words] }] : []),
    ]
      .map((option) => ({ ...option, pace: pace(option.words, option.at) }))
      .filter((option) => option.pace <= rules.maxCharsPerSecond)
      .sort((a, b) => a.pace - b.pace)[0];
    if (!best) continue;
    cues.splice(best.at, 2, toCue(best.words));
    i = best.at - 1;
  }
  return cues;
}

/** Times that keep minSeconds, maxSeconds and, where the silence allows, maxCharsPerSecond. */
function retime(cues: Cue[], texts: readonly string[], rules: CaptionRules, until: number): void {
  cues.forEach((cue, i) => {
    const previous = cues[i - 1];
    const next = cues[i + 1];
    const floor = previous ? previous.end : -Infinity;
    const ceiling = () => Math.min(next ? next.start : Infinity, until);
    cue.start = Math.max(cue.start, floor);
    cue.end = Math.min(Math.max(cue.end, cue.start), until);
    if (cue.end - cue.start < rules.minSeconds) cue.end = Math.min(cue.start + rules.minSeconds, ceiling());
    if (cue.end - cue.start < rules.minSeconds) cue.start = Math.max(floor, cue.end - rules.minSeconds);
    if (cue.end - cue.start < rules.minSeconds && previous) {
      // Borrow from the cue before, which stays long enough.
      const borrowed = Math.min(
        rules.minSeconds - (cue.end - cue.start),
        previous.end - previous.start - rules.minSeconds,
      );
      if (borrowed > 0) {
        previous.end -= borrowed;
        cue.start = previous.end;
      }
    }
    if (cue.end - cue.start < rules.minSeconds && next && next.end - next.start > rules.minSeconds) {
      // Borrow from the cue after: its words show a moment later than said.
      const borrowed = Math.min(
        rules.minSeconds - (cue.end - cue.start),
        next.end - next.start - rules.minSeconds,
      );
      cue.end += borrowed;
      next.start = cue.end;
    }
    const reading = readingChars(texts[i]!) / rules.maxCharsPerSecond;
    if (cue.end - cue.start < reading)
      cue.end = Math.max(
        cue.end,
        Math.min(cue.start + reading, cue.end + rules.gapExtensionSeconds, ceiling()),
      );
    if (cue.end - cue.start > rules.maxSeconds) cue.end = cue.start + rules.maxSeconds;
  });
}
