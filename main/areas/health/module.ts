import type { HealthResponse } from '../../../shared/api/health.js';
import type { AreaContext, AreaModule } from '../area.js';
import { healthRoutes } from './routes.js';

export interface HealthSources {
  version: string;
  startedAt: Date;
  /** Posting's quota for today (null without a provider). */
  quota: () => HealthResponse['quota'];
  /** Analytics' last collection run. */
  lastCollection: () => HealthResponse['lastCollection'];
  /** Why the disk makes the bridge degraded (a full database, a log dropping lines); empty when it does not. */
  storageReasons: () => string[];
}

/** GET /health, the activity log and the job queue: what the bridge is doing, for the operator. */
export function healthArea(ctx: AreaContext, sources: HealthSources): AreaModule {
  return { name: 'health', routes: (mount) => healthRoutes(mount, ctx, sources) };
}
