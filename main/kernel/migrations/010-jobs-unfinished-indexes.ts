import type { Migration } from './migration.js';

/**
 * Issue #13 (the webhook path): the queue's indexes covered every job ever run, so each job's
 * two status changes (claimed, done) moved it within `jobs_due` and `jobs_by_lane`, and every
 * insert also paid for `jobs_by_kind`, which no query reads (the job list filters by kind
 * without it). The queue only ever searches jobs not yet finished: partial indexes hold just
 * those, so a finished job leaves them and is never moved again. Failed jobs, which the
 * operator counts, get their own small index.
 */
export const jobsUnfinishedIndexes: Migration = {
  version: 10,
  name: 'jobs-unfinished-indexes',
  sql: `
    DROP INDEX IF EXISTS jobs_due;
    DROP INDEX IF EXISTS jobs_by_lane;
    DROP INDEX IF EXISTS jobs_by_kind;
    CREATE INDEX jobs_due ON jobs (run_at) WHERE status = 'pending';
    CREATE INDEX jobs_by_lane ON jobs (lane, id) WHERE status IN ('pending', 'running');
    CREATE INDEX jobs_failed ON jobs (id) WHERE status = 'failed';
  `,
};
