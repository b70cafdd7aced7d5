import { getProduction, linkBroadcast, listProductions } from '../../../shared/api/productions.js';
import { AppError } from '../../kernel/app-error.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import type { CrmClient } from '../../peers/crm.js';
import type { Mount } from '../area.js';
import { linkBroadcast as writeBroadcastLink } from './broadcast-link.js';
import { NoSuchProduction } from './crm-reads.js';
import { listProductionsPage } from './list.js';
import { buildThread, type BridgeParts } from './thread.js';

export function productionsRoutes(
  mount: Mount,
  deps: { crm: CrmClient | null; activity: ActivityLog; bridge: BridgeParts; now: () => Date },
): void {
  const needCrm = (): CrmClient => {
    if (!deps.crm) throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
    return deps.crm;
  };
  mount(listProductions, async ({ query }) => ({
    success: true as const,
    limit: query.limit,
    offset: query.offset,
    ...(await listProductionsPage(needCrm(), query)),
  }));
  mount(getProduction, async ({ params }) => {
    try {
      return await buildThread(params.id, deps);
    } catch (error) {
      if (error instanceof NoSuchProduction) throw AppError.notFound(error.message);
      throw error;
    }
  });
  mount(linkBroadcast, async ({ params, body }) => ({
    success: true as const,
    ...(await writeBroadcastLink(needCrm(), deps.activity, params.id, body.broadcastRecordId)),
  }));
}
