import {
  analyzeClips,
  createDraftClip,
  draftFromAnalysis,
  getAnalysisEdl,
  getAnalysisExports,
  getAnalysisOtio,
  getAnalysisXml,
  getClipAnalysis,
  listClipAnalyses,
  getClipSrt,
  getClipVtt,
  getTimelineSrt,
  getTimelineVtt,
  listCrmContent,
  nudgeClip,
} from '../../../shared/api/clips.js';
import { formatClipTime } from '../../../shared/api/clips.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import { clipNameQuoted, misfitMessage } from '../../../shared/clip-fit.js';
import { AppError } from '../../kernel/app-error.js';
import type { CrmClient } from '../../peers/crm.js';
import { textReply, type AreaContext, type FileReplyOptions, type Mount } from '../area.js';
import type { ClipAnalyses } from './analyses.js';
import {
  captionRules,
  captionStats,
  type Caption,
  type CaptionRules,
} from '../../../shared/caption-rules.js';
import { checkClip } from './clip-fit.js';
import { type EditorExports, type ExportFile, type ResolvedFps, type TakeLookup } from './editor-exports.js';
import { createDraftClip as createDraftInCrm, listContent, type DraftClipInput } from './crm-clips.js';
import { recordSubject } from '../../kernel/activity/subjects.js';
import type { ClipAnalysisRunner } from './runner.js';
import { analyzeTranscript } from './transcript-analysis.js';

export interface ClipsRouteDeps {
  runner: ClipAnalysisRunner;
  analyses: ClipAnalyses;
  exports: EditorExports;
  takes: TakeLookup;
}

/** A text export, as a file to save. */
const download = (file: ExportFile, type: string, headers: FileReplyOptions['headers']) =>
  textReply(file.text, { type, downloadName: file.fileName, headers });

export function clipsRoutes(mount: Mount, ctx: AreaContext, deps: ClipsRouteDeps): void {
  const { runner, analyses, exports } = deps;
  const requireCrm = (): CrmClient => {
    if (ctx.peers.crm) return ctx.peers.crm;
    throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
  };
  const findTake = (takeId: number): RecorderTake => {
    const take = deps.takes(takeId);
    if (!take) throw AppError.notFound(`body.takeId: no take ${takeId} (GET /api/recorder/takes lists them)`);
    return take;
  };

  mount(analyzeClips, async ({ body, signal }) => {
    const take = body.takeId === undefined ? null : findTake(body.takeId);
    const answer = await analyzeTranscript(
      { runner, analyses, activity: ctx.activity },
      {
        contentProductionId: body.contentProductionId,
        transcript: body.transcript,
        maxClips: body.maxClips,
        take,
      },
      signal,
    );
    return { success: true, ...answer };
  });

  mount(nudgeClip, ({ params, body }) => ({
    success: true,
    analysisId: params.analysisId,
    clip: analyses.nudge(params.analysisId, params.n, body.edge, body.sentences),
  }));

  const captionHeaders = (captions: Caption[], rules: CaptionRules) => {
    const stats = captionStats(captions, rules);
    return { 'X-Caption-Cues': String(stats.cues), 'X-Caption-Cues-Over-Cps': String(stats.overCps) };
  };
  const speakerRules = (speakers: 'on' | 'off') => captionRules({ speakerLabels: speakers === 'on' });
  const frameRateHeader = (fps: ResolvedFps) => ({ 'X-Frame-Rate': `${fps.used}; source=${fps.source}` });

  for (const [contract, format, type] of [
    [getClipSrt, 'srt', 'application/x-subrip'],
    [getClipVtt, 'vtt', 'text/vtt'],
  ] as const) {
    mount(contract, ({ params, query }) => {
      const file = exports.clipCaptions(params.analysisId, params.n, query, format);
      return download(file, type, captionHeaders(file.captions, speakerRules(query.speakers)));
    });
  }

  for (const [contract, format, type] of [
    [getTimelineSrt, 'srt', 'application/x-subrip'],
    [getTimelineVtt, 'vtt', 'text/vtt'],
  ] as const) {
    mount(contract, ({ params, query }) => {
      const file = exports.timelineCaptions(params.analysisId, query, format);
      return download(file, type, captionHeaders(file.captions, speakerRules(query.speakers)));
    });
  }

  mount(getAnalysisEdl, ({ params, query }) => {
    const file = exports.edl(params.analysisId, { ...query, speakers: 'on' });
    return download(file, 'text/plain', frameRateHeader(file.fps));
  });

  mount(getAnalysisOtio, ({ params, query }) => {
    const file = exports.otio(params.analysisId, { ...query, speakers: 'on' });
    return download(file, 'application/json', frameRateHeader(file.fps));
  });

  mount(getAnalysisXml, ({ params, query }) => {
    const file = exports.xml(params.analysisId, { ...query, speakers: 'on' });
    return download(file, 'application/xml', frameRateHeader(file.fps));
  });

  mount(getAnalysisExports, ({ params, query }) => ({
    success: true,
    ...exports.summary(params.analysisId, query),
  }));

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
    const same =
      analyses.draftOf(stored.id, params.n) === null ? analyses.sameMoment(stored, params.n) : null;
    if (same)
      throw AppError.conflict(
        `suggestion ${params.n} (${formatClipTime(reviewed.startTime)}–${formatClipTime(reviewed.endTime)}) is the same moment as draft clip ${same.clipId}, made from suggestion ${same.n} of analysis ${same.analysisId} (${formatClipTime(same.startTime)}–${formatClipTime(same.endTime)}): open that one instead of making a second draft`,
        { clipId: same.clipId, analysisId: same.analysisId, n: same.n },
      );
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

  mount(listClipAnalyses, ({ query }) => ({
    success: true,
    analyses: analyses.recent(query).map((summary) => ({
      analysisId: summary.id,
      contentProductionId: summary.contentProductionId,
      take:
        summary.take && summary.takeFileName !== null
          ? { id: summary.take.id, name: summary.take.name, fileName: summary.takeFileName }
          : null,
      createdAt: summary.createdAt,
      expiresAt: summary.expiresAt,
      suggestions: summary.suggestions,
      drafts: summary.drafts,
    })),
  }));

  mount(getClipAnalysis, ({ params }) => {
    const stored = analyses.load(params.analysisId);
    return { success: true, ...stored.answer, expiresAt: stored.expiresAt, kept: analyses.kept(stored) };
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
