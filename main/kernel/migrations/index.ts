import { foundation } from './001-foundation.js';
import { guests } from './005-guests.js';
import { analytics } from './003-analytics.js';
import { publishing } from './004-publishing.js';
import { posting } from './002-posting.js';
import { jobsUnfinishedIndexes } from './010-jobs-unfinished-indexes.js';
import { activityPrunedById } from './011-activity-pruned-by-id.js';
import { bridgeStarts } from './024-bridge-starts.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/**
 * Numbered migrations, applied in order once each. Never edit one that has shipped: add the
 * next number. Reserved: 002 social posting, 003 analytics, 004 broadcasts/publishing, 005 guests.
 */
export const migrations: Migration[] = [
  foundation,
  posting,
  publishing,
  analytics,
  guests,
  jobsUnfinishedIndexes,
  activityPrunedById,
  bridgeStarts,
];
