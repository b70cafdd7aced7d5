import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §6.9 "Posts follow the provider": the persisted confirmation schedule of each post the
 * provider holds for a time. `confirm_at`: when the bridge next reads the post's state at the
 * provider (its time + 30 s, then every 2 min), NULL when no check is pending (final, or given
 * up); `confirm_until`: when the checks stop and a post still not final is "unconfirmed" (its
 * time + 1 h, or an hour after the operator's Check again). Rows already scheduled are given
 * their first check, so an upgrade does not leave them unwatched.
 */
export const postConfirmations: Migration = {
  version: 16,
  name: 'posting-post-confirmations',
  sql: `
    ALTER TABLE social_post_ledger ADD COLUMN confirm_at TEXT;
    ALTER TABLE social_post_ledger ADD COLUMN confirm_until TEXT;
    UPDATE social_post_ledger
       SET confirm_at = strftime('%Y-%m-%dT%H:%M:%fZ', publish_at, '+30 seconds'),
           confirm_until = strftime('%Y-%m-%dT%H:%M:%fZ', publish_at, '+1 hour')
     WHERE state = 'posted' AND provider_status = 'scheduled' AND schedule_date IS NOT NULL;
    CREATE INDEX social_post_ledger_by_confirm_at ON social_post_ledger (confirm_at)
      WHERE confirm_at IS NOT NULL;
  `,
};
