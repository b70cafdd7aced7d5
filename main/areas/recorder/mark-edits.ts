import type { RecorderMark } from '../../../shared/api/recorder.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { AppError } from '../../kernel/app-error.js';
import type { RecorderRepo } from './repo.js';

const quoted = (label: string | null) => (label === null ? 'no label' : `"${label}"`);

/**
 * A mark renamed or deleted after the fact (issue #41.2). The takes are read fresh by editor
 * exports and clip analyses (the clips area's `take` offer), so they follow at once.
 */
export function markEdits(repo: RecorderRepo, activity: ActivityLog) {
  const notFound = (id: number) =>
    AppError.notFound(`markId: there is no mark ${id} (deleted, or never made)`);
  const existing = (id: number): RecorderMark => {
    const mark = repo.mark(id);
    if (!mark) throw notFound(id);
    return mark;
  };
  const where = (mark: RecorderMark) => (mark.takeId === null ? 'with no take' : `of take ${mark.takeId}`);

  return {
    rename(id: number, label: string, previousLabel?: string | null): RecorderMark {
      const before = existing(id);
      if (previousLabel !== undefined && previousLabel !== before.label) {
        throw AppError.conflict(
          `markId: mark ${id} was renamed to ${quoted(before.label)} meanwhile, not ${quoted(previousLabel)}: reload the takes and rename it again`,
          { field: 'previousLabel', label: before.label },
        );
      }
      const mark = repo.renameMark(id, label === '' ? null : label) ?? existing(id);
      activity.record(
        'recorder.mark',
        'info',
        `mark ${id} ${where(mark)} renamed: ${quoted(before.label)} → ${quoted(mark.label)}`,
        { markId: id, takeId: mark.takeId, change: 'renamed' },
      );
      return mark;
    },
    remove(id: number): RecorderMark {
      const mark = repo.deleteMark(id);
      if (!mark) throw notFound(id);
      activity.record('recorder.mark', 'info', `mark ${id} ${where(mark)} deleted (${quoted(mark.label)})`, {
        markId: id,
        takeId: mark.takeId,
        change: 'deleted',
      });
      return mark;
    },
  };
}
