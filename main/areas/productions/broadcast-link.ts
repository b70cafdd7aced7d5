import { AppError } from '../../kernel/app-error.js';
import type { CrmClient } from '../../peers/crm.js';

/**
 * Links a StreamhostBroadcast record to a production by writing its contentProductionId (issue
 * #42.2: the operator chose it; the bridge never guesses). Both records must exist.
 */
export async function linkBroadcast(crm: CrmClient, productionId: string, broadcastRecordId: string) {
  const [production, broadcast] = await Promise.all([
    crm.find('ContentProduction', productionId),
    crm.find('StreamhostBroadcast', broadcastRecordId),
  ]);
  if (!production) throw AppError.notFound(`id: the CRM has no ContentProduction ${productionId}`);
  if (!broadcast) {
    throw AppError.notFound(`broadcastRecordId: the CRM has no StreamhostBroadcast ${broadcastRecordId}`);
  }
  await crm.update('StreamhostBroadcast', broadcastRecordId, { contentProductionId: productionId });
  return { broadcastRecordId, contentProductionId: productionId };
}
