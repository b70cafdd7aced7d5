import { analyzeClips, createDraftClip, formatClipTime, listCrmContent } from '../../../shared/api/clips.js';
import { AppError } from '../../kernel/app-error.js';
import type { CrmClient } from '../../peers/crm.js';
import type { AreaContext, Mount } from '../area.js';
import { createDraftClip as createDraftInCrm, listContent } from './crm-clips.js';
import { TranscriptError } from './parse.js';
import { AnalysisUnavailableError, type ClipAnalysisRunner } from './runner.js';

export function clipsRoutes(mount: Mount, ctx: AreaContext, runner: ClipAnalysisRunner): void {
  const requireCrm = (): CrmClient => {
    if (ctx.peers.crm) return ctx.peers.crm;
    throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
  };

  mount(analyzeClips, async ({ body, res }) => {
    const started = performance.now();
    // A client that goes away (closed the page, timed out) stops its analysis.
    const abandoned = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) abandoned.abort();
    });
    let analysis;
    try {
      analysis = await runner.analyze(body.transcript, { maxClips: body.maxClips, signal: abandoned.signal });
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
    const ms = Math.round(performance.now() - started);
    ctx.activity.record(
      'clips.analyzed',
      'info',
      `${analysis.suggestedClips.length} clip suggestions from a ${formatClipTime(analysis.stats.durationS)} ${analysis.format} transcript (${analysis.timing} times, ${ms} ms)`,
      {
        contentProductionId: body.contentProductionId,
        clips: analysis.suggestedClips.length,
        words: analysis.stats.words,
        format: analysis.format,
        ms,
      },
    );
    return { success: true, contentProductionId: body.contentProductionId, ...analysis };
  });

  mount(createDraftClip, async ({ body }) => {
    const result = await createDraftInCrm(requireCrm(), body);
    if (result.created) {
      ctx.activity.record(
        'clips.draft-created',
        'info',
        `Draft clip "${result.name}" (${result.duration} s) created for "${result.contentName}"`,
        { clipId: result.id, contentProductionId: body.contentProductionId },
      );
    }
    return {
      success: true,
      id: result.id,
      name: result.name,
      duration: result.duration,
      contentProductionId: body.contentProductionId,
      status: 'Draft',
      created: result.created,
    };
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
