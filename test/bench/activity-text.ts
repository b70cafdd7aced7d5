import path from 'node:path';
import { openDatabase, type Db } from '../../main/kernel/db.js';
import { createActivityRepo } from '../../main/kernel/activity/repo.js';
import { tempDir } from '../support/temp-dir.js';
import { percentile, type Bench, type BenchResult } from './report.js';

/**
 * Activity by text (issue #42.3): GET /api/activity?q= is a LIKE scan of the log, newest first,
 * stopping at the page's 50 matches; the log keeps 14 days. This measures that scan through the
 * bridge's own repo on 14-day logs of 2,000 and 20,000 events a day, for a common name (stops
 * early), a text met once and one met nowhere (both read the whole log), against SQLite FTS5 with
 * the trigram tokenizer (substring matches, as LIKE) built beside it, which the bridge did not take.
 */
const RUNS = 30;
const PAGE = 50;
const names = [
  'Nadia Haddad',
  'Marcus Bell',
  'Aiko Tanaka',
  'Sofia Lindqvist',
  'David Mensah',
  'Camila Reyes',
];
const events: Array<(name: string, i: number) => [string, string]> = [
  (n, i) => ['posting.scheduled', `Post “${n} on open roadmaps #${i % 97}…” scheduled on microblog`],
  (_, i) => [
    'webhook.received',
    `Webhook social-post-updated: ${1 + (i % 50)} item(s) received from the CRM`,
  ],
  (_, i) => ['job.done', `Job done: bring post “Teaser for Thursday ${i % 300}” in line with its CRM record`],
  (n, i) => ['guests.stage', `Guest ${n} moved from Confirmed to Scheduled (The Studio Hour #${i % 40})`],
  (_, i) => ['analytics.progress', `Collection: ${i % 7} of 7 platforms read, socialnet next`],
  (_, i) => ['broadcasts.status', `Broadcast “The Studio Hour Live #${i % 40}” is now ready`],
];

function fill(db: Db, perDay: number): number {
  const repo = createActivityRepo(db);
  const total = perDay * 14;
  const start = Date.now() - 14 * 86_400_000;
  const batch = 5_000;
  for (let from = 1; from <= total; from += batch) {
    repo.insertAll(
      Array.from({ length: Math.min(batch, total - from + 1) }, (_, k) => {
        const i = from + k;
        const [type, message] = events[i % events.length]!(names[i % names.length]!, i);
        return {
          id: i,
          at: new Date(start + (i * 14 * 86_400_000) / total).toISOString(),
          type,
          level: 'info' as const,
          message,
          data: { subject: { kind: 'post', id: `p${i}`, name: names[i % names.length]! }, deliveryId: i },
        };
      }),
    );
  }
  return total;
}

function timed(run: () => unknown): number[] {
  run();
  return Array.from({ length: RUNS }, () => {
    const started = process.hrtime.bigint();
    run();
    return Number(process.hrtime.bigint() - started) / 1e6;
  });
}

const figures = (ms: number[]) => ({ 'p50 ms': percentile(ms, 50), 'p95 ms': percentile(ms, 95) });

async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const perDay of [2_000, 20_000]) {
    const dir = tempDir('bench-activity-text');
    const db = openDatabase(path.join(dir.path, 'bridge.sqlite'));
    try {
      const rows = fill(db, perDay);
      const repo = createActivityRepo(db);
      const texts = { common: 'nadia', once: 'Thursday 299 ', nowhere: 'no such words' };
      for (const [what, q] of Object.entries(texts)) {
        results.push({
          name: `activity q LIKE scan, ${what}, ${rows} events`,
          figures: figures(timed(() => repo.list({ limit: PAGE, q }))),
        });
      }
      const built = process.hrtime.bigint();
      db.exec(`CREATE VIRTUAL TABLE activity_text USING fts5(message, content='activity', content_rowid='id', tokenize='trigram');
        INSERT INTO activity_text (rowid, message) SELECT id, message FROM activity;`);
      const buildMs = Number(process.hrtime.bigint() - built) / 1e6;
      const fts = db.prepare<[string, number]>(
        'SELECT * FROM activity WHERE id IN (SELECT rowid FROM activity_text WHERE activity_text MATCH ?) ORDER BY id DESC LIMIT ?',
      );
      for (const [what, q] of Object.entries(texts)) {
        results.push({
          name: `activity q FTS5 trigram, ${what}, ${rows} events`,
          figures: figures(timed(() => fts.all(`"${q}"`, PAGE))),
          ...(what === 'common' ? { note: `index built in ${Math.round(buildMs)} ms` } : {}),
        });
      }
    } finally {
      db.close();
      dir.remove();
    }
  }
  return results;
}

export const activityTextBench: Bench = { name: 'activity-text', run };
