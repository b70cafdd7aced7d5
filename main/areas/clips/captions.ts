import { stringifySync, type NodeList } from 'subtitle';
import type { KeptSentence } from './kept-sentences.js';

/** A caption: seconds from the clip's start, at most two lines of `LINE_CHARS`. */
export interface Caption {
  start: number;
  end: number;
  text: string;
}

/** Characters per caption line (the common broadcast guideline); a caption holds two. */
const LINE_CHARS = 42;

/**
 * The captions of sentences [from, to], re-timed so the clip starts at 0 (DESIGN §6.6). A sentence
 * longer than two lines is split at word boundaries, its time shared by characters.
 */
export function clipCaptions(sentences: readonly KeptSentence[], from: number, to: number): Caption[] {
  const zero = sentences[from]!.start;
  const captions: Caption[] = [];
  for (const sentence of sentences.slice(from, to + 1)) {
    const chunks = splitIntoCaptions(sentence.text.replace(/\s+/g, ' ').trim());
    const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0) || 1;
    const seconds = sentence.end - sentence.start;
    let at = sentence.start - zero;
    for (const chunk of chunks) {
      const length = (seconds * chunk.length) / total;
      captions.push({ start: Math.max(0, at), end: Math.max(0, at + length), text: chunk });
      at += length;
    }
  }
  return captions;
}

/** Words into captions of at most two lines of LINE_CHARS (a longer word stands alone). */
function splitIntoCaptions(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > LINE_CHARS) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  const captions: string[] = [];
  for (let i = 0; i < lines.length; i += 2) captions.push(lines.slice(i, i + 2).join('\n'));
  return captions;
}

/** `-->` in a caption's text would read as a timing line. */
const noArrow = (text: string) => text.replace(/-->/g, '→');
/** WebVTT cue text is markup: &, < and > written as entities. */
const vttText = (text: string) =>
  noArrow(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function nodes(captions: readonly Caption[], text: (t: string) => string): NodeList {
  return captions.map((caption) => ({
    type: 'cue',
    data: {
      start: Math.round(caption.start * 1000),
      end: Math.round(caption.end * 1000),
      text: text(caption.text),
    },
  }));
}

export function toSrt(captions: readonly Caption[]): string {
  return stringifySync(nodes(captions, noArrow), { format: 'SRT' });
}

export function toVtt(captions: readonly Caption[]): string {
  return stringifySync(nodes(captions, vttText), { format: 'WebVTT' });
}
