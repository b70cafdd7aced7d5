import { captionRules } from '../../../shared/caption-rules.js';
import type { ClipToRender } from '../area.js';
import type { ClipAnalyses } from './analyses.js';
import type { TakeLookup } from './editor-exports.js';
import { clipCaptions } from './captions.js';

/** Suggestion `n` of an analysis as reviewed (404 naming what is unknown, as every clips route). */
export function clipToRender(
  analyses: ClipAnalyses,
  takes: TakeLookup,
  analysisId: string,
  n: number,
): ClipToRender {
  const analysis = analyses.load(analysisId);
  const reviewed = analyses.clip(analysis, n);
  const span = analyses.span(analysis, n);
  const take = (analysis.takeId === null ? null : takes(analysis.takeId)) ?? analysis.take;
  return {
    analysisId,
    n,
    take,
    startTime: reviewed.startTime,
    endTime: reviewed.endTime,
    hookQuote: reviewed.hookQuote,
    contentProductionId: analysis.contentProductionId,
    draftClipId: analyses.draftOf(analysis.id, n),
    captions: (lineChars) =>
      clipCaptions(analysis.sentences, span.from, span.to, captionRules({ lineChars }), {
        in: reviewed.startTime,
        out: reviewed.endTime,
      }),
  };
}
