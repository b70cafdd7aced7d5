import type { Response } from 'express';
import {
  analyzeClips,
  createDraftClip,
  draftFromAnalysis,
  formatClipTime,
  getAnalysisEdl,
  getClipSrt,
  getClipVtt,
  listCrmContent,
  nudgeClip,
} from '../../../shared/api/clips.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import { clipNameQuoted, misfitMessage } from '../../../shared/clip-fit.js';
import { AppError } from '../../kernel/app-error.js';
import type { CrmClient } from '../../peers/crm.js';
import type { AreaContext, Mount } from '../area.js';
import type { TakeLookup } from '../recorder/module.js';
import type { ClipAnalyses } from './analyses.js';
import { checkClip } from './clip-fit.js';
import { createDraftClip as createDraftInCrm, listContent, type DraftClipInput } from './crm-clips.js';
import { TranscriptError } from './parse.js';
import type { LiveMark } from './pin.js';
import { recordSubject } from '../../kernel/activity/subjects.js';
import { AnalysisUnavailableError, type ClipAnalysisRunner } from './runner.js';

export interface ClipsRouteDeps {
  runner: ClipAnalysisRunner;
  analyses: ClipAnalyses;
  /** The recorder's takes; null when the recorder area does not run. */
  takes: TakeLookup | null;
}

/** A text export, as a file to save. */
function sendFile(res: Response, text: string, type: string, fileName: string): void {
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.send(text);
}

export function clipsRoutes(mount: Mount, ctx: AreaContext, deps: ClipsRouteDeps): void {
  const { runner, analyses } = deps;
  const requireCrm = (): CrmClient => {
    if (ctx.peers.crm) return ctx.peers.crm;
    throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
  };
  const findTake = (takeId: number): RecorderTake => {
    const take = deps.takes?.(takeId) ?? null;
    if (!take) throw AppError.notFound(`body.takeId: no take ${takeId} (GET /api/recorder/takes lists them)`);
    return take;
  };

  mount(analyzeClips, async ({ body, res }) => {
    const started = performance.now();
    const take = body.takeId === undefined ? null : findTake(body.takeId);
    const marks: LiveMark[] = (take?.marks ?? []).flatMap((mark) =>
      mark.offsetS === null ? [] : [{ id: mark.id, offsetS: mark.offsetS, label: mark.label }],
    );
    // A client that goes away (closed the page, timed out) stops its analysis.
    const abandoned = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) abandoned.abort();
    });
    let outcome;
    try {
      outcome = await runner.analyze(body.transcript, {
        maxClips: body.maxClips,
        marks,
        signal: abandoned.signal,
      });
    } catch (error) {
      if (error instanceof AnalysisUnavailableError) {
        throw new AppError('unavailable', 'ANALYSIS_UNAVAILABLE', error.message, {
          retryAfterS: error.retryAfterS,
        });
      }
      if (!(error instanceof TranscriptError)) throw error;
      throw AppError.validation(`body.transcript: ${error.message}`, [
        { field: 'body.transcript', rule: error.rule, message: error.message },
      ]);
    }
    const answer = analyses.store(body.contentProductionId, take, outcome);
    const ms = Math.round(performance.now() - started);
    const pinned = answer.suggestedClips.filter((clip) => clip.marks.length > 0).length;
    ctx.activity.record(
      'clips.analyzed',
      'info',
      `${answer.suggestedClips.length} clip suggestions from a ${formatClipTime(answer.stats.durationS)} ${answer.format} transcript (${answer.timing} times, ${ms} ms)${take ? `, ${pinned} pinned by marks of take ${take.name}` : ''}`,
      {
        // The request names the episode by id only: "an episode" (no CRM read to name an event).
        subject: recordSubject('episode', body.contentProductionId, null),
        contentProductionId: body.contentProductionId,
        analysisId: answer.analysisId,
        clips: answer.suggestedClips.length,
        words: answer.stats.words,
        format: answer.format,
        ms,
      },
    );
    return { success: true, ...answer };
  });

  mount(nudgeClip, ({ params, body }) => ({
    success: true,
    analysisId: params.analysisId,
    clip: analyses.nudge(params.analysisId, params.n, body.edge, body.sentences),
  }));

  mount(getClipSrt, ({ params, res }) => {
    const text = analyses.srt(params.analysisId, params.n);
    sendFile(res, text, 'application/x-subrip', `${params.analysisId}-clip-${params.n}.srt`);
  });

  mount(getClipVtt, ({ params, res }) => {
    const text = analyses.vtt(params.analysisId, params.n);
    sendFile(res, text, 'text/vtt', `${params.analysisId}-clip-${params.n}.vtt`);
  });

  mount(getAnalysisEdl, ({ params, query, res }) => {
    const text = analyses.edl(params.analysisId, query.fps);
    sendFile(res, text, 'text/plain', `${params.analysisId}-${query.fps.replace('.', '_')}fps.edl`);
  });

  /** Creates the draft, records it, and judges it by the one fit rule now its ratio is known. */
  const draft = async (input: DraftClipInput) => {
    const result = await createDraftInCrm(requireCrm(), input);
    if (result.created) {
      ctx.activity.record(
        'clips.draft-created',
        'info',
        `Draft clip ${clipNameQuoted(result.name)} (${result.duration} s) created for "${result.contentName}"`,
        {
          subject: recordSubject('clip', result.id, result.name),
          clipId: result.id,
          contentProductionId: input.contentProductionId,
        },
      );
    }
    // The same rule and words as the clip webhook's warning.
    const fit = checkClip(result.record);
    return {
      success: true as const,
      id: result.id,
      name: result.name,
      duration: result.duration,
      hookQuote: input.hookQuote,
      contentProductionId: input.contentProductionId,
      status: 'Draft' as const,
      created: result.created,
      fit: {
        fits: fit.fits,
        problems: fit.problems.map((problem) => problem.message),
        message: fit.fits ? null : misfitMessage(result.name, fit.problems),
      },
    };
  };

  mount(createDraftClip, ({ body }) => draft(body));

  // From a stored analysis: the reviewed in/out and quote are the draft's (issue #28.5).
  mount(draftFromAnalysis, async ({ params, body }) => {
    const stored = analyses.load(params.analysisId);
    const reviewed = analyses.clip(stored, params.n);
    const answer = await draft({
      contentProductionId: stored.contentProductionId,
      hookQuote: reviewed.hookQuote,
      startTime: reviewed.startTime,
      endTime: reviewed.endTime,
      name: body.name,
      targetPlatforms: body.targetPlatforms ?? reviewed.fitsPlatforms,
    });
    analyses.keepDraft(stored, params.n, answer.id);
    return answer;
  });

  mount(listCrmContent, async ({ query }) => {
    const page = await listContent(requireCrm(), query);
    return {
      success: true,
      total: page.total,
      offset: query.offset,
      limit: query.limit,
      data: page.data,
    };
  });
}
