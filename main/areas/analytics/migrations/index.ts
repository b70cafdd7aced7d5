import type { Migration } from '../../../kernel/migrations/index.js';
import { analytics } from './003-analytics.js';
import { contentReceived } from './033-content-received.js';

/**
 * The analytics area's migrations, in the one numbering all areas and the kernel share: add the next
 * free number, never reuse one, never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [analytics, contentReceived];
