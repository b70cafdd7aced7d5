import type { HealthResponse } from '../../../shared/api/health.js';
import type { AreaContext, AreaModule } from '../area.js';
import type { AlarmSource } from './alarms.js';
import { healthRoutes } from './routes.js';

export interface HealthSources {
  version: string;
  startedAt: Date;
  /** Posting's quota for today (null without a provider). */
  quota: () => HealthResponse['quota'];
  /** Analytics' last collection run. */
  lastCollection: () => HealthResponse['lastCollection'];
  /** The areas' overdue work (DESIGN §6.9); overdue jobs are read from the queue here. */
  alarms: readonly AlarmSource[];
}

/** GET /health, the activity log and the job queue: what the bridge is doing, for the operator. */
export function healthArea(ctx: AreaContext, sources: HealthSources): AreaModule {
  return { name: 'health', routes: (mount) => healthRoutes(mount, ctx, sources) };
}
