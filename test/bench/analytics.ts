import path from 'node:path';
import { platformKeys } from '../../shared/platforms.js';
import { startSandboxPostsvc } from '../../main/sandbox/index.js';
import { addDays, utcDay } from '../../main/areas/analytics/dates.js';
import {
  createAnalyticsRepo,
  type FollowerCountWrite,
  type PostSnapshotWrite,
  type SocialMetricWrite,
} from '../../main/areas/analytics/repo.js';
import { openDatabase } from '../../main/kernel/db.js';
import { areaMigrations } from '../../main/areas/migrations.js';
import { callBridge, eventually, TEST_API_KEY } from '../support/bridge.js';
import { startBuiltBridge } from './built-bridge.js';
import { tempDir } from '../support/temp-dir.js';
import { startBareExpress } from './bare-express.js';
import { loadFigures, runLoad } from './load.js';
import { percentile, type Bench, type BenchResult } from './report.js';

const POSTS = Number(process.env.BENCH_ANALYTICS_POSTS ?? 50_000);
const SNAPSHOTS_PER_POST = 20; // 1,000,000 snapshots
const DAYS = 3 * 365;
const QUERIES = 300;
const INGESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const COLLECT_POSTS = 5_000;

const ms = (value: number) => Number(value.toFixed(2));

function* socialHistory(today: string): Generator<SocialMetricWrite> {
  for (let back = DAYS - 1; back >= 0; back--) {
    const day = addDays(today, -back);
    for (const [i, platform] of platformKeys.entries()) {
      const followers = 5_000 + i * 3_000 + (DAYS - back) * (10 + i);
      const impressions = Math.round(followers * (1 + ((back * 7 + i) % 13) / 10));
      yield {
        metric_date: day,
        platform,
        impressions,
        engagement: Math.round(impressions * 0.04),
        reach: Math.round(impressions * 0.6),
        followers,
        collected_at: `${day}T23:00:00.000Z`,
      };
    }
  }
}

function* followerHistory(social: Iterable<SocialMetricWrite>): Generator<FollowerCountWrite> {
  for (const row of social) {
    yield {
      date: row.metric_date,
      platform: row.platform,
      count: row.followers,
      collected_at: row.collected_at,
    };
  }
}

/** 50,000 posts over three years, 20 snapshots each six hours apart, numbers growing. */
function* snapshots(todayMs: number): Generator<PostSnapshotWrite> {
  const span = DAYS * 86_400_000;
  for (let p = 0; p < POSTS; p++) {
    const platform = platformKeys[p % platformKeys.length]!;
    const publishedMs = todayMs - span + Math.floor((p / POSTS) * span);
    const ceiling = 200 + ((p * 7919) % 25_000);
    for (let s = 1; s <= SNAPSHOTS_PER_POST; s++) {
      const impressions = Math.floor(ceiling * (1 - Math.exp(-s / 4)));
      const likes = Math.floor(impressions * (0.01 + ((p * 31) % 50) / 1000));
      yield {
        post_id: `pp-${p}`,
        platform,
        postsvc_id: `svc-${p}`,
        content: `Post number ${p}: a new episode, a clip and a question for the audience.`,
        likes,
        comments: Math.floor(likes * 0.1),
        shares: Math.floor(likes * ((p % 17) / 40)),
        impressions,
        collected_at: new Date(publishedMs + s * 6 * 3_600_000).toISOString(),
      };
    }
  }
}

async function latencies(url: string, paths: string[], rounds: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const response = await fetch(url + paths[i % paths.length]!, { headers: { 'x-api-key': TEST_API_KEY } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${paths[i % paths.length]}: HTTP ${response.status}`);
    out.push(performance.now() - started);
  }
  return out;
}

/** Query latency on a big store, content ingest over HTTP, and a full collection against the sandbox provider. */
export const analyticsBench: Bench = {
  name: 'analytics',
  async run(): Promise<BenchResult[]> {
    const results: BenchResult[] = [];
    const data = tempDir('bench-analytics');
    const dataDir = data.path;
    const now = new Date();
    const today = utcDay(now);
    try {
      // 1. Generate straight into the bridge's store with the repository, one transaction.
      const generateStarted = performance.now();
      // Every migration, as the bridge opening this data dir next knows them (issue #35.2).
      const db = openDatabase(path.join(dataDir, 'bridge.sqlite'), { migrations: areaMigrations });
      createAnalyticsRepo(db).insertHistory({
        social: socialHistory(today),
        followers: followerHistory(socialHistory(today)),
        posts: snapshots(Date.parse(`${today}T00:00:00Z`)),
      });
      const counts = db
        .prepare<[], { snapshots: number; posts: number; days: number }>(
          `SELECT (SELECT count(*) FROM post_performance) AS snapshots, (SELECT count(*) FROM post_latest) AS posts,
             (SELECT count(*) FROM social_metrics) AS days`,
        )
        .get();
      db.close();
      results.push({
        name: 'generate store (one transaction)',
        figures: { seconds: ms((performance.now() - generateStarted) / 1000), ...counts },
      });

      // 2. Queries through the whole bridge (auth, parse, store, JSON) on that store.
      const bridge = await startBuiltBridge({}, { dataDir, logLevel: 'warn', now: () => now });
      const bare = await startBareExpress();
      try {
        const yearAgo = addDays(today, -364);
        const topPaths = [
          '/analytics/top-posts',
          '/analytics/top-posts?metric=likes&limit=50',
          '/analytics/top-posts?metric=shares&platform=photogram',
        ];
        const socialPaths = [`/analytics/social-metrics?startDate=${yearAgo}&endDate=${today}`];
        const onePlatformPaths = [`/analytics/social-metrics?startDate=${yearAgo}&platform=microblog`];
        await latencies(bridge.url, [...topPaths, ...socialPaths], 60); // warm up
        const baseline = await runLoad({ url: bare.url, body: '{}', requests: QUERIES, concurrency: 1 });
        const top = await latencies(bridge.url, topPaths, QUERIES);
        const year = await latencies(bridge.url, socialPaths, QUERIES);
        const onePlatform = await latencies(bridge.url, onePlatformPaths, QUERIES);
        const rows = (await callBridge(bridge.url, 'GET', socialPaths[0]!)).body.data.length as number;
        const query = (name: string, values: number[], note: string): BenchResult => ({
          name,
          figures: {
            'p50 ms': ms(percentile(values, 50)),
            'p99 ms': ms(percentile(values, 99)),
            'p50 ratio': ms(percentile(values, 50) / baseline.p50Ms),
          },
          note,
        });
        results.push({
          name: 'bare express POST, one connection (baseline)',
          figures: loadFigures(baseline),
        });
        results.push(
          query('GET /analytics/top-posts', top, `${POSTS} posts, ${POSTS * SNAPSHOTS_PER_POST} snapshots`),
        );
        results.push(query('GET /analytics/social-metrics (one year)', year, `${rows} rows of 7 platforms`));
        results.push(query('GET /analytics/social-metrics (one year, one platform)', onePlatform, ''));

        // 3. Content ingest over HTTP, sustained, against the bare handler.
        const ingestBody = (i: number) =>
          JSON.stringify({
            contentId: `content-${i % 500}`,
            platform: i % 2 ? 'videosite' : 'altvideo',
            platformContentId: `v-${i}`,
            views: 1000 + i,
            watchHours: i / 10,
            likes: i % 97,
            comments: i % 13,
            shares: i % 7,
          });
        await runLoad({ url: bare.url, body: ingestBody, requests: 300, concurrency: 16 });
        const bareLoad = await runLoad({
          url: bare.url,
          body: ingestBody,
          requests: INGESTS,
          concurrency: 16,
        });
        const ingest = await runLoad({
          url: `${bridge.url}/analytics/content-ingest`,
          headers: { 'x-api-key': TEST_API_KEY },
          body: ingestBody,
          requests: INGESTS,
          concurrency: 16,
        });
        results.push({
          name: 'bare express POST, 16 connections (baseline)',
          figures: loadFigures(bareLoad),
        });
        results.push({
          name: 'POST /analytics/content-ingest',
          figures: { ...loadFigures(ingest), 'throughput ratio': ms(ingest.perSecond / bareLoad.perSecond) },
          note: `${INGESTS} requests, 16 connections`,
        });
      } finally {
        await bare.stop();
        await bridge.close();
      }

      results.push(await collectionBench());
      return results;
    } finally {
      data.remove();
    }
  },
};

/** Seven platforms, 5,000 published posts, a provider that answers at once: one run end to end. */
async function collectionBench(): Promise<BenchResult> {
  const postsvc = await startSandboxPostsvc({ seed: 3, rateLimitPerMinute: 10_000_000 });
  const day = 86_400_000;
  for (let i = 0; i < COLLECT_POSTS; i++) {
    postsvc.importPost({
      post: `Bench post ${i}`,
      platforms: [platformKeys[i % platformKeys.length]!],
      created: new Date(Date.now() - (2 + (i % 300)) * day),
    });
  }
  const bridge = await startBuiltBridge(
    { POSTSVC_URL: postsvc.url, POSTSVC_API_KEY: postsvc.apiKey },
    {
      logLevel: 'warn',
      // The provider answers at once: measure the bridge, not a self-imposed pace.
      areas: ['health', 'analytics'],
      tuning: { peers: { postsvc: { perSecond: 100_000 } }, analytics: { concurrency: 16 } },
    },
  );
  // Polled every 20 ms: the poll interval is part of the measured time.
  const finished = (runId: number) =>
    eventually(
      async () => {
        const runs = await callBridge(bridge.url, 'GET', '/analytics/runs?limit=5');
        const run = runs.body.data.find((r: { id: number }) => r.id === runId);
        return run && run.status !== 'running' ? (run as { status: string; posts_collected: number }) : null;
      },
      600_000,
      20,
    );
  try {
    await finished(1); // the start-up catch-up, also a full run (warms everything)
    const started = performance.now();
    const answer = await callBridge(bridge.url, 'POST', '/analytics/collect');
    const run = await finished(answer.body.runId as number);
    const seconds = (performance.now() - started) / 1000;
    return {
      name: 'collection: 7 platforms, 5,000 posts (sandbox)',
      figures: {
        seconds: ms(seconds),
        'posts/s': Math.round(run.posts_collected / seconds),
        collected: run.posts_collected,
      },
      note: `run ${run.status}; POST /analytics/collect until the run is written`,
    };
  } finally {
    await bridge.close();
    await postsvc.stop();
  }
}
