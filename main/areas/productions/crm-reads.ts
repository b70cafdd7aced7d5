import type { MissingPart } from '../../../shared/api/productions.js';
import type { CrmClient, CrmEntity, CrmRecord } from '../../peers/crm.js';
import { crmFailureWords } from './crm-words.js';

export interface CrmParts {
  /** The production record; null when the CRM could not be read (then `missing` says why). */
  production: CrmRecord | null;
  guests: CrmRecord[];
  broadcasts: CrmRecord[];
  clips: CrmRecord[];
  posts: CrmRecord[];
  publishes: CrmRecord[];
  missing: MissingPart[];
}

const partOrder: readonly string[] = [
  'ContentProduction',
  'GuestBooking',
  'StreamhostBroadcast',
  'Clip',
  'SocialPost',
  'PlatformPublish',
];

/** The CRM has no such production (its 404): the route answers 404. */
export class NoSuchProduction extends Error {}

/**
 * Everything the CRM holds of one production, in a fixed number of reads whatever its size: the
 * record, then one list per linked entity (`where contentProductionId = id`, paged 200 at a time),
 * side by side. A part that fails is missing, in words; the others stand.
 */
export async function readCrmParts(crm: CrmClient, id: string): Promise<CrmParts> {
  const missing: MissingPart[] = [];
  const linkedTo = (entity: CrmEntity) =>
    crm
      .listAll(entity, { where: [{ type: 'equals', attribute: 'contentProductionId', value: id }] })
      .catch((error: unknown) => {
        missing.push({ entity, reason: crmFailureWords(error) });
        return [];
      });
  const [production, guests, broadcasts, clips, posts, publishes] = await Promise.all([
    crm.find('ContentProduction', id).catch((error: unknown) => {
      missing.push({ entity: 'ContentProduction', reason: crmFailureWords(error) });
      return undefined;
    }),
    linkedTo('GuestBooking'),
    linkedTo('StreamhostBroadcast'),
    linkedTo('Clip'),
    linkedTo('SocialPost'),
    linkedTo('PlatformPublish'),
  ]);
  if (production === null) throw new NoSuchProduction(`id: the CRM has no ContentProduction ${id}`);
  // In the order the thread shows them, whichever read failed first.
  missing.sort((a, b) => partOrder.indexOf(a.entity) - partOrder.indexOf(b.entity));
  return { production: production ?? null, guests, broadcasts, clips, posts, publishes, missing };
}
