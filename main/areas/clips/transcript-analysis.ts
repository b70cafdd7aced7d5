import { formatClipTime, type AnalyzeClipsResponse } from '../../../shared/api/clips.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { recordSubject } from '../../kernel/activity/subjects.js';
import { AppError } from '../../kernel/app-error.js';
import type { ClipAnalyses } from './analyses.js';
import { TranscriptError } from './parse.js';
import type { LiveMark } from './pin.js';
import type { ClipAnalysisRunner } from './runner.js';

interface TranscriptAnalysisDeps {
  runner: ClipAnalysisRunner;
  analyses: ClipAnalyses;
  activity: ActivityLog;
}

/**
 * POST /clips/analyze: the transcript analysed on the runner (the take's marks pin clips), the
 * answer stored for exports and review, and recorded. `signal` stops the analysis when the client
 * goes away; a transcript that cannot be read is 400 naming `body.transcript`.
 */
export async function analyzeTranscript(
  { runner, analyses, activity }: TranscriptAnalysisDeps,
  request: { contentProductionId: string; transcript: string; maxClips: number; take: RecorderTake | null },
  signal: AbortSignal,
): Promise<Omit<AnalyzeClipsResponse, 'success'>> {
  const started = performance.now();
  const { take } = request;
  const marks: LiveMark[] = (take?.marks ?? []).flatMap((mark) =>
    mark.offsetS === null ? [] : [{ id: mark.id, offsetS: mark.offsetS, label: mark.label }],
  );
  const outcome = await runner
    .analyze(request.transcript, { maxClips: request.maxClips, marks, signal })
    .catch((error: unknown) => {
      if (!(error instanceof TranscriptError)) throw error;
      throw AppError.validation(`body.transcript: ${error.message}`, [
        { field: 'body.transcript', rule: error.rule, message: error.message },
      ]);
    });
  const answer = analyses.store(request.contentProductionId, take, outcome);
  const ms = Math.round(performance.now() - started);
  const pinned = answer.suggestedClips.filter((clip) => clip.marks.length > 0).length;
  activity.record(
    'clips.analyzed',
    'info',
    `${answer.suggestedClips.length} clip suggestions from a ${formatClipTime(answer.stats.durationS)} ${answer.format} transcript (${answer.timing} times, ${ms} ms)${take ? `, ${pinned} pinned by marks of take ${take.name}` : ''}`,
    {
      // The request names the episode by id only: "an episode" (no CRM read to name an event).
      subject: recordSubject('episode', request.contentProductionId, null),
      contentProductionId: request.contentProductionId,
      analysisId: answer.analysisId,
      clips: answer.suggestedClips.length,
      words: answer.stats.words,
      format: answer.format,
      ms,
    },
  );
  return answer;
}
