import type { Migration } from '../kernel/migrations/index.js';
import { migrations as analytics } from './analytics/migrations/index.js';
import { migrations as broadcasts } from './broadcasts/migrations/index.js';
import { migrations as clips } from './clips/migrations/index.js';
import { migrations as guests } from './guests/migrations/index.js';
import { migrations as posting } from './posting/migrations/index.js';
import { migrations as publishing } from './publishing/migrations/index.js';
import { migrations as recorder } from './recorder/migrations/index.js';
import { migrations as renders } from './renders/migrations/index.js';
import { migrations as webhooks } from './webhooks/migrations/index.js';

/**
 * Every area's migrations, for the runner in kernel/db.ts (which knows no area). An area with
 * none has no migrations/ folder; its first one adds the folder's index.ts and a line here.
 */
export const areaMigrations: readonly Migration[] = [
  ...analytics,
  ...broadcasts,
  ...clips,
  ...guests,
  ...posting,
  ...publishing,
  ...recorder,
  ...renders,
  ...webhooks,
];
