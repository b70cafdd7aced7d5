import { CLIP_MAX_S, CLIP_MIN_S, type ReviewedClip } from '../../../shared/api/clips.js';
import { fitClip } from '../../../shared/clip-fit.js';
import { quoteOf, type KeptSentence } from './kept-sentences.js';

/** Sentences [from, to] of a clip. */
export interface SentenceSpan {
  from: number;
  to: number;
}

/** Why a nudge cannot be made; the message names the rule (the route names the field). */
export class NudgeError extends Error {
  override name = 'NudgeError';
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Moves a clip's in or out by whole sentences (negative: earlier), issue #28.5. The clip keeps at
 * least one sentence and stays 15–90 s, as a suggestion is (DESIGN §6.6).
 */
export function nudgeSpan(
  sentences: readonly KeptSentence[],
  span: SentenceSpan,
  edge: 'in' | 'out',
  by: number,
): SentenceSpan {
  const next = edge === 'in' ? { from: span.from + by, to: span.to } : { from: span.from, to: span.to + by };
  if (next.from < 0) throw new NudgeError(`there are only ${span.from} sentences before the clip's in`);
  if (next.to >= sentences.length)
    throw new NudgeError(`there are only ${sentences.length - 1 - span.to} sentences after the clip's out`);
  if (next.from > next.to) throw new NudgeError('the clip would hold no sentence: in would pass out');
  const seconds = sentences[next.to]!.end - sentences[next.from]!.start;
  if (seconds < CLIP_MIN_S || seconds > CLIP_MAX_S) {
    throw new NudgeError(
      `would make the clip ${round(seconds)} s long; a clip is ${CLIP_MIN_S}–${CLIP_MAX_S} s`,
    );
  }
  return next;
}

/** A suggestion as it stands after review: in/out, duration, quote and fit follow its sentences. */
export function describeReview(
  sentences: readonly KeptSentence[],
  n: number,
  span: SentenceSpan,
  suggested: SentenceSpan,
): ReviewedClip {
  const startTime = round(sentences[span.from]!.start);
  const endTime = round(sentences[span.to]!.end);
  const duration = round(endTime - startTime);
  return {
    n,
    startTime,
    endTime,
    duration,
    hookQuote: quoteOf(sentences, span.from, span.to),
    fitsPlatforms: fitClip({ durationS: duration, ratios: [], targets: null }).fitsPlatforms,
    sentences: span.to - span.from + 1,
    nudged: span.from !== suggested.from || span.to !== suggested.to,
  };
}
