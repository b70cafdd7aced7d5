import type { AreaContext, AreaModule } from '../area.js';
import { healthRoutes } from './routes.js';
import type { HealthSources } from './sources.js';

/**
 * GET /health, the activity log and the job queue: what the bridge is doing, for the operator.
 * The other areas tell it their alarms and facts (posting's quota, analytics' last collection,
 * the webhooks area's last catch-up).
 */
export function healthArea(ctx: AreaContext, sources: HealthSources): AreaModule {
  let areas: readonly AreaModule[] = [];
  return {
    name: 'health',
    routes: (mount) => healthRoutes(mount, ctx, sources, () => areas),
    meet(all) {
      areas = all;
    },
  };
}
