import type { AreaContext, AreaModule } from '../area.js';
import { ClipEvents } from './clip-events.js';
import { clipsRoutes } from './routes.js';
import { ClipAnalysisRunner, type RunnerLimits } from './runner.js';

/** Clip suggestions from transcripts, offline (DESIGN §6.6), and Draft Clips in the CRM. */
export interface ClipsTuning {
  /** Bounds of the analysis queue (tests shorten the timeout). */
  runner?: Partial<RunnerLimits>;
}

/** The clips area; it also owns the clip webhooks (each clip checked against spec §2.3's platform table). */
export function clipsArea(ctx: AreaContext, tuning: ClipsTuning = {}): AreaModule {
  const runner = new ClipAnalysisRunner(ctx.logger, tuning.runner);
  const events = new ClipEvents({ crm: ctx.peers.crm, activity: ctx.activity });
  return {
    name: 'clips',
    routes: (mount) => clipsRoutes(mount, ctx, runner),
    webhooks: { 'clip-created': events.onClip, 'clip-updated': events.onClip },
    stop: () => runner.stop(),
  };
}
