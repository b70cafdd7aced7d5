import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { areaMigrations } from '../../../main/areas/migrations.js';
import { migrate, openDatabase, type Db } from '../../../main/kernel/db.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/** DESIGN §7: every query the API runs has its index (issue #44: recent analyses, drafts of a moment, media by URL). */
let dir: TempDir | undefined;
let db: Db | undefined;
afterEach(() => {
  db?.close();
  dir?.remove();
});

const plan = (sql: string) =>
  db!
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all()
    .map((row) => (row as { detail: string }).detail)
    .join(' | ');

describe('the clip studio queries use indexes', () => {
  it('recent analyses, a production’s, the drafts of a moment, a media URL', () => {
    dir = tempDir('clips-plan');
    db = openDatabase(path.join(dir.path, 'bridge.sqlite'));
    migrate(db, areaMigrations);
    expect(
      plan("SELECT id FROM clip_analyses WHERE expires_at > '' ORDER BY created_at DESC, rowid DESC LIMIT 5"),
    ).toMatch(/USING INDEX clip_analyses_by_(created|expiry)/);
    expect(
      plan(
        "SELECT id FROM clip_analyses WHERE content_production_id = 'x' AND expires_at > '' ORDER BY created_at DESC, rowid DESC LIMIT 5",
      ),
    ).toContain('USING INDEX clip_analyses_by_production');
    expect(
      plan(
        `SELECT r.analysis_id FROM clip_analyses a JOIN clip_reviews r ON r.analysis_id = a.id
         WHERE a.content_production_id = 'x' AND a.take_id IS NULL AND r.draft_clip_id IS NOT NULL
           AND r.start_time < 10 AND r.end_time > 0 AND a.expires_at > ''`,
      ),
    ).toMatch(/SEARCH a USING INDEX clip_analyses_by_production.*SEARCH r USING/);
    expect(plan("SELECT * FROM render_media WHERE access_url = 'u' LIMIT 1")).toContain(
      'USING INDEX render_media_by_url',
    );
  });
});
