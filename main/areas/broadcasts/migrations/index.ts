import type { Migration } from '../../../kernel/migrations/index.js';
import { broadcastRuns } from './034-broadcast-runs.js';

/**
 * The broadcasts area's migrations, in the one numbering all areas and the kernel share: add the
 * next free number, never reuse one, never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [broadcastRuns];
