import type { AreaContext, AreaModule } from '../area.js';
import { healthRoutes } from './routes.js';
import type { HealthSources } from './sources.js';

/** GET /health, the activity log and the job queue: what the bridge is doing, for the operator. */
export function healthArea(ctx: AreaContext, sources: HealthSources): AreaModule {
  return { name: 'health', routes: (mount) => healthRoutes(mount, ctx, sources) };
}
