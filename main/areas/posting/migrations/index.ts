import type { Migration } from '../../../kernel/migrations/index.js';
import { posting } from './002-posting.js';
import { platformStates } from './007-platform-states.js';
import { postConfirmations } from './016-post-confirmations.js';
import { liveHolds } from './018-live-post-holds.js';
import { movesInPlace } from './025-moves-in-place.js';
import { postLinks } from './035-post-links.js';

/**
 * The posting area's migrations, in the one numbering all areas and the kernel share: add the next
 * free number, never reuse one, never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [
  posting,
  platformStates,
  postConfirmations,
  liveHolds,
  movesInPlace,
  postLinks,
];
