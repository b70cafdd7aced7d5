import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * The posting ledger (DESIGN §6.2): one active row per SocialPost id (or per API request),
 * claimed before the provider is called, so a second delivery finds it instead of posting
 * again. A reschedule keeps the old row (inactive) so the quota still counts what the
 * provider created that day.
 */
export const posting: Migration = {
  version: 2,
  name: 'posting',
  sql: `
    CREATE TABLE social_post_ledger (
      id INTEGER PRIMARY KEY,
      -- CRM SocialPost id; NULL for a post scheduled through POST /postsvc/schedule.
      social_post_id TEXT,
      active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
      source TEXT NOT NULL CHECK (source IN ('crm', 'api')),
      -- Sent to the provider; SocialPost id + hash of content and time (+ generation).
      idempotency_key TEXT NOT NULL UNIQUE,
      content_hash TEXT NOT NULL,
      -- claimed: provider call in flight (by claim_token's process); unknown: the call's outcome
      -- is not known (timeout, crash): reconcile from the provider's history before anything else.
      state TEXT NOT NULL CHECK (state IN ('claimed', 'unknown', 'posted', 'failed', 'cancelled')),
      claim_token TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      post TEXT NOT NULL,
      platforms TEXT NOT NULL,
      media_urls TEXT NOT NULL,
      schedule_date TEXT,
      -- When it goes out: schedule_date, or the claim time for a post published at once.
      publish_at TEXT NOT NULL,
      -- UTC day on which the provider creates it: the day its quota is counted.
      quota_day TEXT NOT NULL,
      postsvc_id TEXT,
      provider_status TEXT,
      published_at TEXT,
      error TEXT,
      error_code TEXT,
      -- 1 when the provider answered this key with a refusal: a new attempt needs a new key.
      refused INTEGER NOT NULL DEFAULT 0 CHECK (refused IN (0, 1)),
      claimed_at TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX social_post_ledger_active_post ON social_post_ledger (social_post_id) WHERE active = 1;
    CREATE INDEX social_post_ledger_by_post ON social_post_ledger (social_post_id, id);
    CREATE INDEX social_post_ledger_by_quota_day ON social_post_ledger (quota_day, state);
    CREATE INDEX social_post_ledger_by_postsvc_id ON social_post_ledger (postsvc_id);
    CREATE INDEX social_post_ledger_by_publish_at ON social_post_ledger (publish_at);
  `,
};
