import { cleanQuote } from './quote.js';
import type { Sentence } from './sentences.js';

/**
 * A sentence as an analysis keeps it (30 days, beside the suggestions): enough to re-time its
 * captions, nudge a clip by whole sentences and pick the clip's quote again, without the transcript.
 */
export interface KeptSentence {
  start: number;
  end: number;
  text: string;
  /** How quotable it is (signals.ts): the clip's hookQuote is its most quotable sentence. */
  quotability: number;
  /** Who said it (the transcript's label); absent in analyses kept before captions named speakers. */
  speaker?: string | null;
}

export function keptSentence(sentence: Sentence, quotability: number): KeptSentence {
  return {
    start: sentence.start,
    end: sentence.end,
    text: sentence.text,
    quotability,
    speaker: sentence.speaker,
  };
}

/** The hookQuote of sentences [from, to]: the first most quotable one, cleaned (as windows.ts picks it). */
export function quoteOf(sentences: readonly KeptSentence[], from: number, to: number): string {
  let best = from;
  for (let at = from + 1; at <= to; at++) {
    if (sentences[at]!.quotability > sentences[best]!.quotability) best = at;
  }
  return cleanQuote(sentences[best]!.text);
}
