import path from 'node:path';
import Database from 'better-sqlite3';

/** The time of a provider post's active ledger row in a bridge's data dir, and the move it has under way, if any. */
export function ledgerMoveOf(
  dataDir: string,
  postsvcId: string,
): { schedule_date: string; moving_to: string | null } | undefined {
  const db = new Database(path.join(dataDir, 'bridge.sqlite'), { readonly: true });
  try {
    return db
      .prepare<[string], { schedule_date: string; moving_to: string | null }>(
        'SELECT schedule_date, moving_to FROM social_post_ledger WHERE postsvc_id = ? AND active = 1',
      )
      .get(postsvcId);
  } finally {
    db.close();
  }
}
