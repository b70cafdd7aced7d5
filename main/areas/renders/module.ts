import path from 'node:path';
import { AppError } from '../../kernel/app-error.js';
import { offerOf, type AreaContext, type AreaModule, type AreaOffers } from '../area.js';
import { locateMediaTools, type MediaTools } from '../../kernel/media-tools.js';
import { captionFontsDir } from './caption-font.js';
import { freeBytes } from './free-space.js';
import { READY_JOB, RenderReadiness } from './make-ready.js';
import { RenderFiles } from './render-files.js';
import { RenderRuns } from './render-run.js';
import { RENDER_JOB, Renders } from './renders.js';
import { createRendersRepo } from './repo.js';
import { rendersRoutes } from './routes.js';

/** What tests set (no env var does): the disk's free space, the programs found. */
export interface RendersTuning {
  freeSpace?: (dir: string) => Promise<number | null>;
  tools?: MediaTools;
}

const PRUNE_EVERY_MS = 3_600_000;

/**
 * Clip renders (DESIGN §6.10, issue #43): an area of its own, beside clips, since it owns a table,
 * a job kind, files on disk and their retention; it asks the clips area (its module) for a
 * suggestion's in/out, take and cues, and keeps the analysis as long as the render's files.
 * Renders run one at a time, outside the peer slots, FFmpeg below the bridge's priority.
 */
export function rendersArea(ctx: AreaContext, tuning: RendersTuning = {}): AreaModule {
  let areas: readonly AreaModule[] = [];
  const clipsOffer = <K extends 'clipToRender' | 'keepAnalysisUntil'>(key: K): AreaOffers[K] => {
    const offer = offerOf(areas, key);
    if (!offer) throw AppError.notFound('clips are not part of this bridge: nothing to render');
    return offer;
  };
  const clips: Pick<AreaOffers, 'clipToRender' | 'keepAnalysisUntil'> = {
    clipToRender: (analysisId, n) => clipsOffer('clipToRender')(analysisId, n),
    keepAnalysisUntil: (analysisId, until) => clipsOffer('keepAnalysisUntil')(analysisId, until),
  };
  const repo = ctx.repo(createRendersRepo);
  const files = new RenderFiles(path.join(ctx.config.dataDir, 'renders'));
  const tools = tuning.tools ?? locateMediaTools(ctx.config);
  const freeSpace = tuning.freeSpace ?? freeBytes;
  const runs = new RenderRuns({
    repo,
    files,
    tools,
    activity: ctx.activity,
    now: ctx.now,
    logger: ctx.logger,
    fontsDir: captionFontsDir(),
    freeSpace,
    keepAnalysisUntil: (analysisId, until) => clips.keepAnalysisUntil(analysisId, until),
  });
  const readiness = new RenderReadiness({
    repo,
    files,
    tools,
    crm: ctx.peers.crm,
    postsvc: ctx.peers.postsvc,
    plan: () => ctx.config.postsvc?.plan ?? ctx.config.postsvcPlan,
    clips,
    jobs: ctx.jobs,
    transaction: ctx.transaction,
    activity: ctx.activity,
    now: ctx.now,
  });
  const renders = new Renders({
    readiness,
    repo,
    files,
    runs,
    tools,
    clips,
    jobs: ctx.jobs,
    transaction: ctx.transaction,
    activity: ctx.activity,
    now: ctx.now,
    freeSpace,
  });
  ctx.jobs.register<{ renderId: string }>(
    RENDER_JOB,
    ({ renderId }, { signal }) => runs.run(renderId, signal),
    {
      describe: ({ renderId }) => `render ${renderId}`,
      // One at a time, beside the peer work (it holds no slot), never retried by itself: a failure is said in words.
      holdsSlot: false,
      maxRunning: 1,
      maxAttempts: 1,
      logDone: false,
      stopsAtOnce: true,
    },
  );
  ctx.jobs.register<{ renderId: string }>(
    READY_JOB,
    ({ renderId }, { signal }) => readiness.run(renderId, signal),
    {
      describe: ({ renderId }) => `make ready of render ${renderId}`,
      // Its failures are the ready state's, in words; the operator asks again (each time with new upload URLs).
      maxAttempts: 1,
      logDone: false,
    },
  );
  ctx.scheduler.every('renders pruning', PRUNE_EVERY_MS, () => renders.pruneExpired(), true);
  // What a crash left (parts, caption scripts, folders of renders not done), before the queue starts.
  files.sweep((id) => (repo.get(id)?.files.length ?? 0) > 0);
  return {
    name: 'renders',
    routes: (mount) => rendersRoutes(mount, renders),
    offers: {
      rendersOf: (analysisIds) => renders.ofAnalyses(analysisIds),
      clipMedia: (accessUrl) => renders.clipMedia(accessUrl),
    },
    meet(all) {
      areas = all;
    },
  };
}
