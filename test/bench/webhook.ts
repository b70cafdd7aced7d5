import path from 'node:path';
import Database from 'better-sqlite3';
import { signEspoBody } from '../../main/http/espo-signature.js';
import {
  phpJsonEncode,
  startSandboxCrm,
  startSandboxPostsvc,
  type SandboxCrm,
} from '../../main/sandbox/index.js';
import { eventually, TEST_API_KEY, type TestBridge } from '../support/bridge.js';
import { startBuiltBridge } from './built-bridge.js';
import { startBareExpress } from './bare-express.js';
import { combineLoads, comparedTo, loadFigures, runLoad, type LoadResult } from './load.js';
import type { Bench, BenchResult } from './report.js';
import { crmAndPostsvcEnv } from '../support/peers-env.js';
import { timeStatements } from './statement-time.js';
import { logLevelFrom } from '../../main/kernel/logger.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
/**
 * A run sends REQUESTS of each load (bare, test, Draft) in SLICES turns: a slice of each in turn,
 * each load's throughput being its requests over the sum of its slices' times. On this shared
 * machine the host's speed moves within seconds; a bare load measured before the bridge's ones
 * made the ratio move by a tenth or more from run to run (0.37–0.62 for the test webhook in one
 * hour), where slices taking turns meet the same moments. RUNS runs: the one with the median
 * Draft ratio is reported, the others give the range.
 */
const SLICES = Number(process.env.BENCH_SLICES ?? 8);
const SLICE = Math.ceil(REQUESTS / SLICES);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WARMUP = 300;
/** A shorter Draft load after the measured ones, with every SQLite statement timed (statement-time.ts). */
const TIMED = 1000;
const CONCURRENCY = 20;

/** Read-only look into the bridge's database: what was processed, counted by the bench itself. */
function processedCounts(bridge: TestBridge) {
  const db = new Database(path.join(bridge.dataDir, 'bridge.sqlite'), { readonly: true });
  try {
    const count = (sql: string) => db.prepare<[], { n: number }>(sql).get()!.n;
    return {
      testJobsDone: count(
        "SELECT COUNT(*) AS n FROM jobs WHERE kind LIKE 'webhook.test%' AND status = 'done'",
      ),
      testDeliveriesDone: count(
        "SELECT COUNT(DISTINCT json_extract(payload, '$.deliveryId')) AS n FROM jobs WHERE kind LIKE 'webhook.test%' AND status = 'done'",
      ),
      itemsDone: count(
        "SELECT COUNT(*) AS n FROM processed_events WHERE same_as IS NULL AND status = 'done' AND event = 'social-created'",
      ),
      recordsDone: count(
        "SELECT COUNT(DISTINCT entity_id) AS n FROM processed_events WHERE same_as IS NULL AND status = 'done' AND event = 'social-created'",
      ),
      unfinished: count("SELECT COUNT(*) AS n FROM jobs WHERE status IN ('pending', 'running')"),
    };
  } finally {
    db.close();
  }
}

/** One new Draft SocialPost per request: EspoCRM's array of one, PHP-escaped, signed. */
function draftBodies(crm: SandboxCrm, count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    phpJsonEncode([
      crm.create('SocialPost', {
        name: `Bench draft ${i}`,
        content: `Bench draft ${i}: an idea for later https://studio.com/ideas/${i}`,
        platform: 'Microblog',
        status: 'Draft',
      }),
    ]),
  );
}

/**
 * The webhook intake through the whole bridge against a bare Express JSON handler, same machine,
 * same run, 20 connections (issue #13.1):
 * - POST /webhooks/test with the key (one JSON object: auth, delivery log, durable job, answer);
 * - a signed 1-item EspoCRM array to /webhooks/social-created whose item is a Draft, with the CRM
 *   and the provider configured (signature, delivery log, record mark, durable job, the posting
 *   area's decision, answer; no CRM read and no provider call is needed for a Draft).
 * Nothing may be lost: after each run the bench counts, in the bridge's database, that every 2xx
 * was processed exactly once, and that the provider got no post.
 */
export const webhookBench: Bench = {
  name: 'webhook',
  async run(): Promise<BenchResult[]> {
    const secret = 'bench-secret';
    const crm = await startSandboxCrm({ warn: () => undefined });
    const postsvc = await startSandboxPostsvc({ plan: 'business', rateLimitPerMinute: 1_000_000 });
    // The log level `npm run serve` runs at (LOG_LEVEL, else info: a line per request, to the file).
    const bridge = await startBuiltBridge(crmAndPostsvcEnv(crm, postsvc, { secret }), {
      logLevel: logLevelFrom(process.env),
    });
    const bare = await startBareExpress();
    try {
      const body = JSON.stringify({ test: true, source: 'bench' });
      const bodies = draftBodies(crm, WARMUP + RUNS * SLICES * SLICE + TIMED);
      // Signed before the loads: the client shares this process, and its HMACs are not the bridge's time.
      const signatures = bodies.map((draft) => signEspoBody(draft, secret, 'wh-bench'));
      const testHook = (requests: number) =>
        runLoad({
          url: `${bridge.url}/webhooks/test`,
          headers: { 'x-api-key': TEST_API_KEY },
          body,
          requests,
          concurrency: CONCURRENCY,
        });
      const drafts = (offset: number, requests: number) =>
        runLoad({
          url: `${bridge.url}/webhooks/social-created`,
          headers: (i) => ({ signature: signatures[offset + i]! }),
          body: (i) => bodies[offset + i]!,
          requests,
          concurrency: CONCURRENCY,
        });
      const settled = () => eventually(() => processedCounts(bridge).unfinished === 0, 60_000);
      const ok = (load: LoadResult) => load.requests - load.errors;

      // Warm both up so JIT and SQLite caches are comparable.
      await runLoad({ url: bare.url, body, requests: WARMUP, concurrency: CONCURRENCY });
      const warmTest = await testHook(WARMUP);
      const warmDrafts = await drafts(0, WARMUP);
      await settled();
      const before = processedCounts(bridge);

      const runs: { baseline: LoadResult; test: LoadResult; draft: LoadResult }[] = [];
      for (let run = 0; run < RUNS; run++) {
        const baseline: LoadResult[] = [];
        const test: LoadResult[] = [];
        const draft: LoadResult[] = [];
        for (let turn = 0; turn < SLICES; turn++) {
          baseline.push(await runLoad({ url: bare.url, body, requests: SLICE, concurrency: CONCURRENCY }));
          test.push(await testHook(SLICE));
          draft.push(await drafts(WARMUP + (run * SLICES + turn) * SLICE, SLICE));
        }
        runs.push({ baseline: combineLoads(baseline), test: combineLoads(test), draft: combineLoads(draft) });
      }
      const ratioOf = (run: (typeof runs)[number], load: 'test' | 'draft') =>
        run[load].perSecond / run.baseline.perSecond;
      const byDraftRatio = [...runs].sort((a, b) => ratioOf(a, 'draft') - ratioOf(b, 'draft'));
      const { baseline, test, draft } = byDraftRatio[Math.floor(runs.length / 2)]!;
      const range = (load: 'test' | 'draft') => {
        const ratios = runs.map((run) => ratioOf(run, load));
        return `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`;
      };
      const cpuRange = (load: 'test' | 'draft') => {
        const over = runs.map((run) => run[load].cpuUsPerRequest - run.baseline.cpuUsPerRequest);
        return `${Math.round(Math.min(...over))}–${Math.round(Math.max(...over))}`;
      };
      const answered = (load: 'test' | 'draft') => runs.reduce((sum, run) => sum + ok(run[load]), 0);
      await settled();
      const after = processedCounts(bridge);

      // Where the Draft path's SQLite time goes (not a throughput figure: the clock costs a little).
      const clock = timeStatements();
      await drafts(WARMUP + RUNS * SLICES * SLICE, TIMED);
      await settled();
      const statements = clock.stop();

      const testProcessed = after.testJobsDone - before.testJobsDone;
      const testOnce = after.testDeliveriesDone - before.testDeliveriesDone;
      const draftsProcessed = after.itemsDone - before.itemsDone;
      const draftRecords = after.recordsDone - before.recordsDone;
      const warmOk = ok(warmTest) + ok(warmDrafts);
      const runsNote = `ratio over the ${RUNS} runs`;
      return [
        {
          name: 'bare express POST (baseline)',
          figures: loadFigures(baseline),
          note: `${SLICES * SLICE} requests per load and run, in ${SLICES} slices taking turns with the bridge's loads; ${CONCURRENCY} connections; shown: the run with the median Draft ratio of ${RUNS}`,
        },
        {
          name: 'bridge POST /webhooks/test',
          figures: { ...comparedTo(test, baseline), '2xx': answered('test'), processed: testProcessed },
          note: `${runsNote} ${range('test')}, cpu µs/req over bare ${cpuRange('test')}; ${testOnce} distinct deliveries processed in all (exactly once: ${testProcessed === answered('test') && testOnce === answered('test')})`,
        },
        {
          name: 'bridge POST /webhooks/social-created (Draft)',
          figures: { ...comparedTo(draft, baseline), '2xx': answered('draft'), processed: draftsProcessed },
          note: `signed 1-item arrays; ${runsNote} ${range('draft')}, cpu µs/req over bare ${cpuRange('draft')}; ${draftRecords} records processed in all (exactly once: ${draftsProcessed === answered('draft') && draftRecords === answered('draft')}); provider posts ${postsvc.posts().length}; warm-up 2xx ${warmOk} of ${2 * WARMUP}`,
        },
        {
          name: 'Draft path: SQLite time per request',
          figures: { 'µs/req': Math.round(statements.perRequestUs(TIMED)) },
          note: `${TIMED} more Draft requests with every statement timed; the costliest:\n    ${statements.top(TIMED, 12).join('\n    ')}`,
        },
      ];
    } finally {
      await bare.stop();
      await bridge.close();
      await crm.stop();
      await postsvc.stop();
    }
  },
};
