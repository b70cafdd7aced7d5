import { foundation } from './001-foundation.js';
import { jobsUnfinishedIndexes } from './010-jobs-unfinished-indexes.js';
import { activityPrunedById } from './011-activity-pruned-by-id.js';
import { bridgeStarts } from './024-bridge-starts.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/**
 * The kernel's migrations (activity, jobs, settings, the bridge's starts; 001 also made the
 * webhooks area's first tables). The areas' own sit beside each area (main/areas/migrations.ts);
 * all share one numbering, applied in order once each. Never edit one that has shipped: add the
 * next free number.
 */
export const migrations: Migration[] = [foundation, jobsUnfinishedIndexes, activityPrunedById, bridgeStarts];
