import type { NextProduction } from '../../../shared/api/recorder.js';
import { suggestRecorderFilename } from '../../../shared/recorder-filename.js';
import type { CrmClient } from '../../peers/crm.js';

/** A production scheduled this long ago is still "next": it is the one being recorded now. */
export const NEXT_PRODUCTION_LOOKBACK_MS = 60 * 60_000;

/**
 * The next scheduled ContentProduction and the name the spec's rule gives its recording
 * (`YYYYMMDD_<name>`, the day of its scheduledDate), for Companion's "filename from the next
 * production" button (DESIGN §5.6). Read only: setting the name is POST /api/recorder/filename.
 */
export async function nextProduction(crm: CrmClient, now: Date): Promise<Omit<NextProduction, 'success'>> {
  const since = new Date(now.getTime() - NEXT_PRODUCTION_LOOKBACK_MS).toISOString();
  const page = await crm.list('ContentProduction', {
    where: [{ type: 'greaterThanOrEquals', attribute: 'scheduledDate', value: since }],
    orderBy: 'scheduledDate',
    order: 'asc',
    maxSize: 1,
    select: ['id', 'name', 'scheduledDate'],
  });
  const record = page.list[0];
  const scheduledDate = typeof record?.scheduledDate === 'string' ? record.scheduledDate : null;
  const at = scheduledDate === null ? Number.NaN : Date.parse(scheduledDate);
  if (!record || scheduledDate === null || Number.isNaN(at)) return { production: null, filename: null };
  const name = typeof record.name === 'string' ? record.name : '';
  return {
    production: { id: record.id, name, scheduledDate: new Date(at).toISOString() },
    filename: suggestRecorderFilename(name, new Date(at)),
  };
}
