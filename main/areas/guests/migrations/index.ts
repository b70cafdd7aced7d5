import type { Migration } from '../../../kernel/migrations/index.js';
import { guestHolds } from './008-guest-holds.js';
import { catchUpStageSource } from './019-catch-up-stage-source.js';
import { lateHolds } from './020-late-holds.js';

/**
 * The guests area's own migrations, after the shipped 001–005 (main/kernel/migrations, never
 * edited) in the one global numbering: add the next free number, never reuse one.
 */
export const migrations: readonly Migration[] = [guestHolds, catchUpStageSource, lateHolds];
