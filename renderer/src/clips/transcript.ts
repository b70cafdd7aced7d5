import { MAX_TRANSCRIPT_CHARS } from '../../../shared/api/clips.js';

export interface TranscriptSummary {
  characters: number;
  words: number;
  /** What the bridge will most likely read it as (the bridge decides). */
  kind: string;
  /** Plain text: no time stamps, so times will be estimated. */
  estimated: boolean;
  tooLong: boolean;
}

const STAMPED_LINE = /^\s*[[(]?(?:\d{1,2}:)?\d{1,3}:\d{2}\b/m;

/** A quick look at a pasted transcript for the form: size and probable format. */
export function summarise(text: string): TranscriptSummary {
  const trimmed = text.trimStart();
  // Time stamps, caption numbers and speaker labels are not words said.
  const words = text
    .split(/\s+/)
    .filter((word) => /\p{L}/u.test(word) && !/^[\p{Lu}\d ]+:$/u.test(word) && word !== 'WEBVTT').length;
  const kind = /^WEBVTT/.test(trimmed)
    ? 'WebVTT captions'
    : text.includes('-->')
      ? 'SRT captions'
      : STAMPED_LINE.test(text)
        ? 'time-stamped lines'
        : 'plain text';
  return {
    characters: text.length,
    words,
    kind,
    estimated: kind === 'plain text',
    tooLong: text.length > MAX_TRANSCRIPT_CHARS,
  };
}

/** Files a transcript comes in; anything else is refused before it is read. */
export const TRANSCRIPT_FILE_TYPES = '.txt,.srt,.vtt,.text,.md,text/plain,text/vtt,application/x-subrip';

export async function readTranscriptFile(file: File): Promise<string> {
  if (file.size > MAX_TRANSCRIPT_CHARS * 4) {
    throw new Error(`${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB: too large for a transcript`);
  }
  const text = await file.text();
  if (text.includes('\u0000')) throw new Error(`${file.name} is not a text file`);
  return text;
}
