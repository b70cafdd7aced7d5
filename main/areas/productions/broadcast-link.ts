import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { capitalize, named, recordSubject } from '../../kernel/activity/subjects.js';
import { AppError } from '../../kernel/app-error.js';
import type { CrmClient } from '../../peers/crm.js';

/**
 * Links a StreamhostBroadcast record to a production by writing its contentProductionId (issue
 * #42.2: the operator chose it; the bridge never guesses). Both records must exist. The link is
 * said in the activity log (with the production it leaves, when it moves), once: linking again
 * what is already linked writes nothing.
 */
export async function linkBroadcast(
  crm: CrmClient,
  activity: ActivityLog,
  productionId: string,
  broadcastRecordId: string,
) {
  const [production, broadcast] = await Promise.all([
    crm.find('ContentProduction', productionId),
    crm.find('StreamhostBroadcast', broadcastRecordId),
  ]);
  if (!production) throw AppError.notFound(`id: the CRM has no ContentProduction ${productionId}`);
  if (!broadcast) {
    throw AppError.notFound(`broadcastRecordId: the CRM has no StreamhostBroadcast ${broadcastRecordId}`);
  }
  const before = typeof broadcast.contentProductionId === 'string' ? broadcast.contentProductionId : null;
  if (before === productionId) return { broadcastRecordId, contentProductionId: productionId };

  await crm.update('StreamhostBroadcast', broadcastRecordId, { contentProductionId: productionId });
  const subject = recordSubject('broadcast', broadcastRecordId, broadcast.name);
  const episode = recordSubject('episode', productionId, production.name);
  const from = before === null ? null : await previousName(crm, before);
  activity.record(
    'broadcast.linked',
    'info',
    `${capitalize(named(subject))} linked to ${named(episode)}${from ? ` (it was linked to ${from})` : ''}`,
    {
      subject,
      broadcastRecordId,
      contentProductionId: productionId,
      production: episode,
      fromContentProductionId: before,
    },
  );
  return { broadcastRecordId, contentProductionId: productionId };
}

/** The production a broadcast leaves, as a message names it; a record gone or unreadable is still "another episode". */
async function previousName(crm: CrmClient, id: string): Promise<string> {
  const record = await crm.find('ContentProduction', id).catch(() => null);
  return record ? named(recordSubject('episode', id, record.name)) : 'another episode';
}
