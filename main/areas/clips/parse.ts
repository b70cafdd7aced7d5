import { parseTimecode, TIMECODE } from './timecode.js';

export type TranscriptFormat = 'srt' | 'vtt' | 'stamped' | 'plain';

/** One caption, stamped line or plain line of a transcript. Times in seconds; null when unknown. */
export interface Cue {
  start: number | null;
  end: number | null;
  /** The speaker label written on this cue, if any (`HOST:`, `<v Jane>`). */
  speaker: string | null;
  text: string;
  /** `[laughter]`, `(applause)` and the like seen in this cue. */
  reactions: number;
}

export interface ParsedTranscript {
  format: TranscriptFormat;
  cues: Cue[];
  warnings: string[];
}

/** Why a transcript cannot be read; the message states the rule broken (the caller names the field). */
export class TranscriptError extends Error {
  constructor(
    readonly rule: 'empty' | 'unparseable',
    message: string,
  ) {
    super(message);
    this.name = 'TranscriptError';
  }
}

const ARROW_LINE = new RegExp(String.raw`^\s*(${TIMECODE})\s*-->\s*(${TIMECODE})(?:\s.*)?$`);
const STAMP_FIRST = new RegExp(
  String.raw`^\s*[\[(]?(${TIMECODE})(?:\s*(?:-|–|to)\s*(${TIMECODE}))?(?:[\])]\s*(?:[-–—|:>]\s*)?|\s*[-–—|:>]\s*|\s+|$)(.*)$`,
);
const SPEAKER_WORDS = String.raw`(?:[A-Z][\w'.-]*)(?:[ \t]+[A-Z0-9][\w'.-]*){0,3}`;
/** `HOST [00:01:02]: text`, `Jane Doe (1:02) text`. */
const SPEAKER_THEN_BRACKETED_STAMP = new RegExp(
  String.raw`^\s*(${SPEAKER_WORDS})\s*[\[(](${TIMECODE})[\])]\s*[:\-–—]?\s*(.*)$`,
);
/** Otter-style label line: `Jane Doe  0:03`, the words follow on the next lines. */
const SPEAKER_THEN_STAMP_ALONE = new RegExp(String.raw`^\s*(${SPEAKER_WORDS})\s+(${TIMECODE})\s*$`);
const SPEAKER_LABEL = new RegExp(String.raw`^(?:>>\s*|-\s+)?(${SPEAKER_WORDS})\s*:\s+(\S.*)$`);
/** Capitalised words that open ordinary sentences with a colon, not speaker names. */
const NOT_SPEAKERS = new Set([
  'Note',
  'Example',
  'Warning',
  'Tip',
  'Update',
  'Edit',
  'Step',
  'Rule',
  'Spoiler',
  'Disclaimer',
]);
const REACTION = /[[(](?:laughter|laughs|laughing|applause|cheering|cheers|audience laughs)[\])]/gi;
const ANNOTATION =
  /[[(](?:music|inaudible|crosstalk|silence|pause|background noise|noise|unintelligible|indistinct|overlapping)[^\])]{0,30}[\])]/gi;
/** Binary content: NUL or many control characters other than tab and line breaks. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g; // eslint-disable-line no-control-regex

/**
 * Reads plain text, SRT, WebVTT or time-stamped lines into cues. Pure; throws TranscriptError
 * for empty, binary or broken input.
 */
export function parseTranscript(input: string): ParsedTranscript {
  const text = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (text.trim() === '') throw new TranscriptError('empty', 'is empty (no text)');
  const controls = text.match(CONTROL)?.length ?? 0;
  if (text.includes('\u0000') || controls > text.length / 100) {
    throw new TranscriptError(
      'unparseable',
      `is not text (${controls} control characters); send plain text, SRT, WebVTT or [hh:mm:ss] lines`,
    );
  }
  const lines = text.split('\n');
  const parsed = detectAndParse(lines);
  const withWords = parsed.cues.filter((cue) => /[\p{L}\p{N}]/u.test(cue.text));
  if (withWords.length === 0) {
    throw new TranscriptError(
      'unparseable',
      `has no words in ${describeFormat(parsed.format)} (only time stamps, numbering or markup)`,
    );
  }
  return { ...parsed, cues: withWords };
}

function describeFormat(format: TranscriptFormat): string {
  return {
    srt: 'the SRT captions',
    vtt: 'the WebVTT captions',
    stamped: 'the time-stamped lines',
    plain: 'the text',
  }[format];
}

function detectAndParse(lines: string[]): ParsedTranscript {
  const firstLine = lines.find((line) => line.trim() !== '')?.trim() ?? '';
  const isVtt = /^WEBVTT(?:\s|$)/.test(firstLine);
  const arrowLines = lines.filter((line) => ARROW_LINE.test(line)).length;
  if (isVtt || arrowLines > 0) return parseCaptions(lines, isVtt ? 'vtt' : 'srt');
  if (lines.some((line) => line.includes('-->'))) {
    const bad = lines.findIndex((line) => line.includes('-->'));
    throw new TranscriptError(
      'unparseable',
      `line ${bad + 1} looks like a caption time line but is not 'hh:mm:ss,mmm --> hh:mm:ss,mmm' ("${lines[bad]!.trim().slice(0, 60)}")`,
    );
  }
  const nonEmpty = lines.filter((line) => line.trim() !== '');
  const stamped = nonEmpty.filter((line) => stampOf(line) !== null).length;
  if (stamped >= 2 && stamped >= nonEmpty.length * 0.2) return parseStamped(lines);
  return parsePlain(nonEmpty);
}

/** SRT and WebVTT: a time line opens a cue, its text runs to the next blank line. */
function parseCaptions(lines: string[], format: 'srt' | 'vtt'): ParsedTranscript {
  const cues: Cue[] = [];
  const warnings: string[] = [];
  let current: { cue: Cue; lines: string[] } | null = null;
  let badTimes = 0;
  const close = () => {
    if (current) cues.push(finishCue(current.cue, current.lines, format));
    current = null;
  };
  lines.forEach((line, i) => {
    const timing = ARROW_LINE.exec(line);
    if (timing) {
      close();
      const start = parseTimecode(timing[1]!);
      const end = parseTimecode(timing[2]!);
      if (start === null || end === null || end < start) {
        badTimes++;
        return;
      }
      current = { cue: { start, end, speaker: null, text: '', reactions: 0 }, lines: [] };
      return;
    }
    if (line.trim() === '') return close();
    // A cue number written without a blank line before it belongs to the next cue.
    if (/^\s*\d+\s*$/.test(line) && ARROW_LINE.test(lines[i + 1] ?? '')) return close();
    if (current) (current as { lines: string[] }).lines.push(line.trim());
  });
  close();
  if (cues.length === 0) {
    throw new TranscriptError(
      'unparseable',
      `${describeFormat(format)} have no cue with a valid 'start --> end' time line`,
    );
  }
  if (badTimes > 0)
    warnings.push(`${badTimes} caption time lines were invalid (end before start) and skipped`);
  return { format, cues: dropRollingRepeats(cues), warnings };
}

/**
 * The formatting tags each format has (issue #39.2): SRT's `<i> <b> <u> <s> <font …>` and ASS
 * overrides `{\…}`; WebVTT's cue tags (class, italic, bold, underline, ruby, voice, language) and
 * timestamps. Anything else between `<` and `>` is speech ("costs < 5% of sales and margins > 40%").
 */
const FORMATTING_TAGS = {
  srt: /<\/?(?:[ibus]|font(?:\s[^<>]*)?)>|\{\\[^}]*\}/gi,
  vtt: /<\/?(?:[cibu]|ruby|rt|v|lang)(?:\.[\w.-]+)?(?:\s[^<>]*)?>|<(?:\d{2,}:)?\d{2}:\d{2}\.\d{3}>/g,
};

function finishCue(cue: Cue, textLines: string[], format: 'srt' | 'vtt'): Cue {
  let speaker: string | null = null;
  const cleaned = textLines.map((line) => {
    const voice = /^<v(?:\.[\w.-]+)?\s+([^>]+)>/.exec(line);
    if (voice && speaker === null) speaker = voice[1]!.trim();
    return decodeEntities(line.replace(FORMATTING_TAGS[format], ''));
  });
  const { text, reactions } = stripAnnotations(cleaned.join(' '));
  const labelled = format === 'vtt' && speaker !== null ? null : splitSpeaker(text);
  return {
    ...cue,
    speaker: labelled?.speaker ?? speaker,
    text: labelled?.text ?? text,
    reactions,
  };
}

/** Auto-captions repeat the previous line at the top of each cue; keep each line once. */
function dropRollingRepeats(cues: Cue[]): Cue[] {
  const out: Cue[] = [];
  for (const cue of cues) {
    const previous = out.at(-1);
    if (
      previous &&
      previous.text !== '' &&
      cue.text.startsWith(previous.text) &&
      cue.text !== previous.text
    ) {
      out.push({ ...cue, text: cue.text.slice(previous.text.length).trim() });
    } else if (previous && previous.text === cue.text && previous.speaker === cue.speaker) {
      previous.end = cue.end;
    } else {
      out.push(cue);
    }
  }
  return out;
}

interface Stamp {
  start: number;
  end: number | null;
  speaker: string | null;
  rest: string;
}

function stampOf(line: string): Stamp | null {
  const first = STAMP_FIRST.exec(line);
  if (first) {
    const start = parseTimecode(first[1]!);
    if (start !== null) {
      const end = first[2] ? parseTimecode(first[2]) : null;
      return { start, end: end !== null && end > start ? end : null, speaker: null, rest: first[3]!.trim() };
    }
  }
  const labelled = SPEAKER_THEN_BRACKETED_STAMP.exec(line) ?? SPEAKER_THEN_STAMP_ALONE.exec(line);
  if (labelled && !NOT_SPEAKERS.has(labelled[1]!.split(/\s/)[0]!)) {
    const start = parseTimecode(labelled[2]!);
    if (start !== null)
      return { start, end: null, speaker: labelled[1]!.trim(), rest: (labelled[3] ?? '').trim() };
  }
  return null;
}

/** `[hh:mm:ss]`-stamped lines: a stamp opens a cue; unstamped lines continue it. */
function parseStamped(lines: string[]): ParsedTranscript {
  const cues: Cue[] = [];
  const warnings: string[] = [];
  let ignoredBefore = 0;
  let backwards = 0;
  let explicitEnds = 0;
  const endsGiven = new Set<Cue>();
  for (const line of lines) {
    if (line.trim() === '') continue;
    const stamp = stampOf(line);
    if (!stamp) {
      const last = cues.at(-1);
      if (last) last.text = joinText(last.text, line.trim());
      else ignoredBefore++;
      continue;
    }
    const previousStart = cues.at(-1)?.start ?? 0;
    if (stamp.start < previousStart) backwards++;
    const cue: Cue = {
      start: Math.max(stamp.start, previousStart),
      end: stamp.end,
      speaker: stamp.speaker,
      text: stamp.rest,
      reactions: 0,
    };
    if (stamp.end !== null) {
      explicitEnds++;
      endsGiven.add(cue);
    }
    cues.push(cue);
  }
  const finished = cues.map((cue) => {
    const { text, reactions } = stripAnnotations(cue.text);
    const labelled = cue.speaker === null ? splitSpeaker(text) : null;
    return {
      ...cue,
      speaker: cue.speaker ?? labelled?.speaker ?? null,
      text: labelled?.text ?? text,
      reactions,
      given: endsGiven.has(cue),
    };
  });
  // A line lasts until the next stamp; silences longer than the words need are not stretched over.
  const out: Cue[] = finished.map((cue, i) => {
    const estimate = estimateSeconds(cue.text);
    const next = finished[i + 1]?.start ?? null;
    const natural = cue.start! + Math.max(estimate * 2, estimate + 4);
    const end = cue.given ? cue.end! : next !== null && next > cue.start! ? Math.min(next, natural) : natural;
    return { start: cue.start, end, speaker: cue.speaker, text: cue.text, reactions: cue.reactions };
  });
  if (ignoredBefore > 0) warnings.push(`${ignoredBefore} lines before the first time stamp were ignored`);
  if (backwards > 0) warnings.push(`${backwards} time stamps went backwards; kept in transcript order`);
  if (explicitEnds > 0 && explicitEnds < out.length)
    warnings.push('some lines had end times and some did not');
  return { format: 'stamped', cues: out, warnings };
}

/** Plain text: every non-empty line is a cue; times are estimated later. */
function parsePlain(lines: string[]): ParsedTranscript {
  const cues = lines.map((line): Cue => {
    const { text, reactions } = stripAnnotations(line.trim());
    const labelled = splitSpeaker(text);
    return {
      start: null,
      end: null,
      speaker: labelled?.speaker ?? null,
      text: labelled?.text ?? text,
      reactions,
    };
  });
  return { format: 'plain', cues, warnings: [] };
}

/** `HOST: text` → speaker HOST. */
function splitSpeaker(text: string): { speaker: string; text: string } | null {
  const match = SPEAKER_LABEL.exec(text);
  if (!match || NOT_SPEAKERS.has(match[1]!.split(/\s/)[0]!)) return null;
  return { speaker: match[1]!.trim(), text: match[2]!.trim() };
}

function stripAnnotations(text: string): { text: string; reactions: number } {
  const reactions = text.match(REACTION)?.length ?? 0;
  const cleaned = text.replace(REACTION, ' ').replace(ANNOTATION, ' ').replace(/\s+/g, ' ').trim();
  return { text: cleaned, reactions };
}

function joinText(a: string, b: string): string {
  return a === '' ? b : `${a} ${b}`;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&nbsp;': ' ',
  '&quot;': '"',
  '&#39;': "'",
};
function decodeEntities(text: string): string {
  return text.replace(/&(?:amp|lt|gt|nbsp|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** Spoken words per second at 150 words per minute (DESIGN §6.6). */
export const WORDS_PER_SECOND = 150 / 60;

function estimateSeconds(text: string): number {
  return countWords(text) / WORDS_PER_SECOND;
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}
