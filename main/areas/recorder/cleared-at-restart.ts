import type { ActivityLog } from '../../kernel/activity/activity-log.js';

/** A name the recorder held before a restart, and when that restart cleared it (DESIGN §6.7). */
export interface ClearedName {
  filename: string;
  clearedAt: string;
}

/**
 * The held name is memory only, so after a restart it is gone. The activity log remembers the
 * last name set (`recorder.filename`) and each start (`bridge.started`): the first start after
 * that name cleared it. Called before this start is recorded, so with no later start in the log
 * it is this one (`startedAt`). Null: no name was ever set (as far as the log's 14 days reach).
 */
export function clearedAtRestart(activity: ActivityLog, startedAt: Date): ClearedName | null {
  const lastSet = activity.list({ type: 'recorder.filename', limit: 1 })[0];
  const filename = lastSet?.data?.filename;
  if (!lastSet || typeof filename !== 'string') return null;
  const laterStarts = activity
    .list({ type: 'bridge.started', limit: 200 })
    .filter((start) => start.id > lastSet.id);
  const first = laterStarts.at(-1);
  return { filename, clearedAt: first?.at ?? startedAt.toISOString() };
}
