import type { AreaContext, AreaModule } from '../area.js';
import { clipsRoutes } from './routes.js';
import { ClipAnalysisRunner, type RunnerLimits } from './runner.js';

/** Clip suggestions from transcripts, offline (DESIGN §6.6), and Draft Clips in the CRM. */
export interface ClipsTuning {
  /** Bounds of the analysis queue (tests shorten the timeout). */
  runner?: Partial<RunnerLimits>;
}

export function clipsArea(ctx: AreaContext, tuning: ClipsTuning = {}): AreaModule {
  const runner = new ClipAnalysisRunner(ctx.logger, tuning.runner);
  return { name: 'clips', routes: (mount) => clipsRoutes(mount, ctx, runner), stop: () => runner.stop() };
}
