import type { AreaContext, AreaModule } from '../area.js';
import type { TakeLookup } from '../recorder/module.js';
import { ClipAnalyses } from './analyses.js';
import { ClipEvents } from './clip-events.js';
import { clipToRender, type ClipToRender } from './clip-to-render.js';
import { EditorExports } from './editor-exports.js';
import { createClipsRepo } from './repo.js';
import { clipsRoutes } from './routes.js';
import { ClipAnalysisRunner, type RunnerLimits } from './runner.js';

/** Clip suggestions from transcripts, offline (DESIGN §6.6), and Draft Clips in the CRM. */
export interface ClipsTuning {
  /** Bounds of the analysis queue (tests shorten the timeout). */
  runner?: Partial<RunnerLimits>;
}

const PRUNE_EVERY_MS = 3_600_000;

export type { ClipToRender } from './clip-to-render.js';

/** What the clips area gives the renders area (DESIGN §6.10). */
export interface ClipsModule extends AreaModule {
  /** Suggestion `n` of an analysis as reviewed; throws the clips routes' 404s. */
  clipToRender(analysisId: string, n: number): ClipToRender;
  /** Keeps the analysis at least until `until` (ISO): analyses with renders outlive their 30 days. */
  keepAnalysisUntil(analysisId: string, until: string): void;
}

/**
 * The clips area; it also owns the clip webhooks (each clip checked against spec §2.3's platform
 * table). `takes` is the recorder's (app.ts): a take's marks pin clips.
 */
export function clipsArea(
  ctx: AreaContext,
  tuning: ClipsTuning = {},
  takes: TakeLookup | null = null,
): ClipsModule {
  const runner = new ClipAnalysisRunner(ctx.logger, tuning.runner);
  const analyses = new ClipAnalyses(ctx.repo(createClipsRepo), ctx.now);
  const exports = new EditorExports(analyses, takes);
  const events = new ClipEvents({ crm: ctx.peers.crm, activity: ctx.activity });
  ctx.scheduler.every('clip analyses pruning', PRUNE_EVERY_MS, () => analyses.pruneExpired(), true);
  return {
    name: 'clips',
    routes: (mount) => clipsRoutes(mount, ctx, { runner, analyses, exports, takes }),
    webhooks: { 'clip-created': events.onClip, 'clip-updated': events.onClip },
    stop: () => runner.stop(),
    clipToRender: (analysisId, n) => clipToRender(analyses, takes, analysisId, n),
    keepAnalysisUntil: (analysisId, until) => analyses.keepUntil(analysisId, until),
  };
}
