import type { HealthResponse } from '../../../shared/api/health.js';

/** What GET /health reports that other areas know: handed to the health area by app.ts. */
export interface HealthSources {
  version: string;
  startedAt: Date;
  /** Posting's quota for today (null without a provider). */
  quota: () => HealthResponse['quota'];
  /** Analytics' last collection run. */
  lastCollection: () => HealthResponse['lastCollection'];
  /** The webhooks area's last CRM catch-up. */
  lastCatchUp: () => HealthResponse['lastCatchUp'];
  /** Why the disk makes the bridge degraded (a full database, a log dropping lines); empty when it does not. */
  storageReasons: () => string[];
}
