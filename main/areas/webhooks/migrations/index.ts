import type { Migration } from '../../../kernel/migrations/index.js';
import { repeats } from './006-repeats.js';
import { dropUnusedIndex } from './009-drop-unused-index.js';
import { deliveriesPrunedById } from './012-deliveries-pruned-by-id.js';
import { marksKnowTheirItem } from './013-marks-know-their-item.js';
import { payloadsByHash } from './014-payloads-by-hash.js';
import { webhookBindings } from './015-webhook-bindings.js';
import { crmCatchUp } from './017-crm-catchup.js';
import { itemsWaitForARun } from './026-items-wait-for-a-run.js';

/**
 * The webhooks area's migrations, in the one numbering all areas and the kernel share: add the next
 * free number, never reuse one, never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [
  repeats,
  dropUnusedIndex,
  deliveriesPrunedById,
  marksKnowTheirItem,
  payloadsByHash,
  webhookBindings,
  crmCatchUp,
  itemsWaitForARun,
];
