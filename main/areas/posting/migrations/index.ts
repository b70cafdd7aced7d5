import type { Migration } from '../../../kernel/migrations/index.js';
import { platformStates } from './007-platform-states.js';
import { postConfirmations } from './016-post-confirmations.js';
import { liveHolds } from './018-live-post-holds.js';
import { movesInPlace } from './025-moves-in-place.js';

/**
 * The posting area's own migrations, after the shipped 001–005 (main/kernel/migrations, never
 * edited) in the one global numbering: add the next free number, never reuse one.
 */
export const migrations: readonly Migration[] = [platformStates, postConfirmations, liveHolds, movesInPlace];
