import type { Migration } from '../../../kernel/migrations/index.js';
import { guests } from './005-guests.js';
import { guestHolds } from './008-guest-holds.js';
import { catchUpStageSource } from './019-catch-up-stage-source.js';
import { lateHolds } from './020-late-holds.js';

/**
 * The guests area's migrations, in the one numbering all areas and the kernel share: add the next
 * free number, never reuse one, never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [guests, guestHolds, catchUpStageSource, lateHolds];
