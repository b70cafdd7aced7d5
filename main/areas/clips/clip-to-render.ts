import type { RecorderTake } from '../../../shared/api/recorder.js';
import { captionRules, type Caption } from '../../../shared/caption-rules.js';
import type { TakeLookup } from '../recorder/module.js';
import type { ClipAnalyses } from './analyses.js';
import { clipCaptions } from './captions.js';

/** A suggestion as the renders area needs it (DESIGN §6.10): its reviewed in/out, its take, its cues. */
export interface ClipToRender {
  analysisId: string;
  n: number;
  /** The take as the recorder holds it now, else as it stood when analysed; null: analysed without one. */
  take: RecorderTake | null;
  startTime: number;
  endTime: number;
  hookQuote: string;
  /** Its cues from the in, by the caption rules, with lines of `lineChars`. */
  captions(lineChars: number): Caption[];
}

/** Suggestion `n` of an analysis as reviewed (404 naming what is unknown, as every clips route). */
export function clipToRender(
  analyses: ClipAnalyses,
  takes: TakeLookup | null,
  analysisId: string,
  n: number,
): ClipToRender {
  const analysis = analyses.load(analysisId);
  const reviewed = analyses.clip(analysis, n);
  const span = analyses.span(analysis, n);
  const take = (analysis.takeId === null ? null : takes?.(analysis.takeId)) ?? analysis.take;
  return {
    analysisId,
    n,
    take,
    startTime: reviewed.startTime,
    endTime: reviewed.endTime,
    hookQuote: reviewed.hookQuote,
    captions: (lineChars) =>
      clipCaptions(analysis.sentences, span.from, span.to, captionRules({ lineChars }), {
        in: reviewed.startTime,
        out: reviewed.endTime,
      }),
  };
}
