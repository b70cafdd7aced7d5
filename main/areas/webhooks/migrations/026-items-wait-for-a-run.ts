import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #36.2: items of a record driven by one job per record (SocialPost) join that job instead
 * of getting one each. `job_run` is the run of the job that answers the item (the first that
 * starts after it arrived): when a run ends, the items waiting for it or an earlier one take its
 * outcome. NULL on items with a job of their own (or none).
 */
export const itemsWaitForARun: Migration = {
  version: 26,
  name: 'webhooks-items-wait-for-a-run',
  sql: `
    ALTER TABLE processed_events ADD COLUMN job_run INTEGER;
    CREATE INDEX processed_events_waiting ON processed_events (job_id, job_run) WHERE status = 'pending';
  `,
};
