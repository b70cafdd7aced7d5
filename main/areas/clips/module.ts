import type { AreaContext, AreaModule } from '../area.js';
import { clipsRoutes } from './routes.js';
import { ClipAnalysisRunner } from './runner.js';

/** Clip suggestions from transcripts, offline (DESIGN §6.6), and Draft Clips in the CRM. */
export function clipsArea(ctx: AreaContext): AreaModule {
  const runner = new ClipAnalysisRunner(ctx.logger);
  return { name: 'clips', routes: (mount) => clipsRoutes(mount, ctx, runner) };
}
