import { offerOf, type AreaContext, type AreaModule } from '../area.js';
import { ClipAnalyses } from './analyses.js';
import { ClipEvents } from './clip-events.js';
import { clipToRender } from './clip-to-render.js';
import { EditorExports, type TakeLookup } from './editor-exports.js';
import { createClipsRepo } from './repo.js';
import { clipsRoutes } from './routes.js';
import { ClipAnalysisRunner, type RunnerLimits } from './runner.js';

/** Clip suggestions from transcripts, offline (DESIGN §6.6), and Draft Clips in the CRM. */
export interface ClipsTuning {
  /** Bounds of the analysis queue (tests shorten the timeout). */
  runner?: Partial<RunnerLimits>;
}

const PRUNE_EVERY_MS = 3_600_000;

/**
 * The clips area; it also owns the clip webhooks (each clip checked against spec §2.3's platform
 * table). A take's marks, the recorder's, pin clips.
 */
export function clipsArea(ctx: AreaContext, tuning: ClipsTuning = {}): AreaModule {
  let areas: readonly AreaModule[] = [];
  // The recorder's takes; none when it does not run.
  const takes: TakeLookup = (id) => offerOf(areas, 'take')?.(id) ?? null;
  const runner = new ClipAnalysisRunner(ctx.logger, tuning.runner);
  const repo = ctx.repo(createClipsRepo);
  const analyses = new ClipAnalyses(repo, ctx.now);
  const exports = new EditorExports(analyses, takes);
  const events = new ClipEvents({ crm: ctx.peers.crm, activity: ctx.activity });
  ctx.scheduler.every('clip analyses pruning', PRUNE_EVERY_MS, () => analyses.pruneExpired(), true);
  return {
    name: 'clips',
    routes: (mount) => clipsRoutes(mount, ctx, { runner, analyses, exports, takes }),
    webhooks: { 'clip-created': events.onClip, 'clip-updated': events.onClip },
    meet(all) {
      areas = all;
    },
    stop: () => runner.stop(),
    offers: {
      clipToRender: (analysisId, n) => clipToRender(analyses, takes, analysisId, n),
      keepAnalysisUntil: (analysisId, until) => analyses.keepUntil(analysisId, until),
      productionAnalyses: (contentProductionId) =>
        repo.ofProduction(contentProductionId, ctx.now().toISOString()),
    },
  };
}
