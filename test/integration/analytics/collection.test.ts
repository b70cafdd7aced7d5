import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeTuning } from '../../../main/app.js';
import { startSandboxPostsvc, type SandboxPostsvc } from '../../../main/sandbox/index.js';
import {
  callBridge,
  eventually,
  startTestBridge,
  TEST_API_KEY,
  type TestBridge,
} from '../../support/bridge.js';
import { providerThrottle } from '../../support/faults.js';
import { spawnBridge, type BridgeProcess } from '../../support/process.js';
import { tempDir } from '../../support/temp-dir.js';

/** The collector (spec §1.7, DESIGN §6.5) against the simulated provider: runs, failures, restarts. */
const DAY = 86_400_000;
const POSTS = 8;

interface Run {
  id: number;
  trigger: string;
  status: string;
  outcomes: { platform: string; status: string; error: string | null; followers: number | null }[];
  posts_seen: number;
  posts_collected: number;
  posts_failed: number;
  error_code: string | null;
  error: string | null;
}

let postsvc: SandboxPostsvc;
const cleanup: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  postsvc = await startSandboxPostsvc({ seed: 5 });
  for (let i = 0; i < POSTS; i++) {
    postsvc.importPost({
      post: `Published post ${i}`,
      platforms: i % 3 === 0 ? ['microblog', 'professional'] : ['socialnet'],
      created: new Date(Date.now() - (i + 2) * DAY),
    });
  }
});
afterEach(async () => {
  postsvc.faults.clearFaults();
  for (const platform of ['photogram', 'microblog'] as const) postsvc.failPlatform(platform, null);
  for (const step of cleanup.splice(0).reverse()) await step();
});
afterAll(async () => {
  await postsvc?.stop();
});

async function bridgeOn(
  env: Record<string, string> = {},
  dataDir?: string,
  tuning?: BridgeTuning,
): Promise<TestBridge> {
  const bridge = await startTestBridge(
    { POSTSVC_URL: postsvc.url, POSTSVC_API_KEY: postsvc.apiKey, ...env },
    { ...(dataDir ? { dataDir } : {}), ...(tuning ? { tuning } : {}) },
  );
  cleanup.push(() => bridge.close());
  return bridge;
}

async function runs(url: string): Promise<Run[]> {
  return (await callBridge(url, 'GET', '/analytics/runs')).body.data as Run[];
}
async function finished(url: string, runId: number): Promise<Run> {
  const run = await eventually(async () => {
    const found = (await runs(url)).find((r) => r.id === runId);
    return found && found.status !== 'running' ? found : null;
  }, 20_000);
  if (!run) throw new Error(`run ${runId} did not finish`);
  return run;
}

function freshDataDir(): string {
  const dir = tempDir('analytics-collect');
  cleanup.push(dir.remove);
  return dir.path;
}

describe('collection runs', () => {
  it('catches up at start, then refuses a second run while one is going (409 naming it)', async () => {
    const bridge = await bridgeOn();
    const first = await finished(bridge.url, 1);
    expect(first).toMatchObject({
      trigger: 'catch-up',
      status: 'succeeded',
      posts_seen: POSTS,
      posts_collected: POSTS,
    });
    expect(first.outcomes.map((o) => o.status)).toEqual(Array(7).fill('ok'));

    postsvc.faults.injectFault({ method: 'POST', pathPrefix: '/analytics/post', delayMs: 300, times: 100 });
    const started = await bridge.call('POST', '/analytics/collect');
    expect(started.status).toBe(200);
    const second = await bridge.call('POST', '/analytics/collect');
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      success: false,
      code: 'CONFLICT',
      details: { runId: started.body.runId },
    });
    expect(second.body.error).toContain(`run ${started.body.runId}`);
    const health = await bridge.call('GET', '/health');
    expect(health.body.lastCollection).toMatchObject({
      id: started.body.runId,
      status: 'running',
      finishedAt: null,
    });
    expect((await finished(bridge.url, started.body.runId)).status).toBe('succeeded');
    // Free again once the run is over.
    const third = await bridge.call('POST', '/analytics/collect');
    expect(third.status).toBe(200);
    await finished(bridge.url, third.body.runId);
  });

  it('streams progress on /events', async () => {
    const bridge = await bridgeOn();
    await finished(bridge.url, 1);
    const controller = new AbortController();
    const response = await fetch(`${bridge.url}/events?key=${TEST_API_KEY}`, { signal: controller.signal });
    const reader = response.body!.getReader();
    const started = await bridge.call('POST', '/analytics/collect');
    let text = '';
    const decoder = new TextDecoder();
    while (!/"type":"collection\.finished"/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    controller.abort();
    const events = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; data: { runId: number; phase: string } });
    const mine = events.filter((e) => e.data?.runId === started.body.runId);
    expect(mine.filter((e) => e.type === 'collection.progress').map((e) => e.data.phase)).toEqual(
      expect.arrayContaining(['started', 'social', 'posts', 'writing']),
    );
    expect(mine.at(-1)).toMatchObject({ type: 'collection.finished', data: { phase: 'done' } });
  });

  it('keeps going when one platform fails: the run is partial and names it', async () => {
    const bridge = await bridgeOn();
    await finished(bridge.url, 1);
    postsvc.failPlatform('photogram', 'Photogram access token expired', 190);
    const started = await bridge.call('POST', '/analytics/collect');
    const run = await finished(bridge.url, started.body.runId);
    expect(run.status).toBe('partial');
    expect(run.outcomes.find((o) => o.platform === 'photogram')).toMatchObject({
      status: 'failed',
      error: 'Photogram access token expired',
    });
    expect(run.outcomes.filter((o) => o.status === 'ok')).toHaveLength(6);
    expect(run.posts_collected).toBe(POSTS);
    expect(run.error).toContain('photogram: Photogram access token expired');
    const activity = await bridge.call('GET', '/api/activity?type=collection.finished');
    expect(activity.body.data[0]).toMatchObject({
      level: 'warn',
      data: { runId: run.id, status: 'partial' },
    });
  });

  it('waits out a 429 (Retry-After) instead of hammering, and still reads every post', async () => {
    const bridge = await bridgeOn();
    await finished(bridge.url, 1);
    const before = postsvc.calls().length;
    postsvc.faults.injectFault(
      providerThrottle({ method: 'POST', pathPrefix: '/analytics/post', retryAfterS: 1, times: 2 }),
    );
    const started = await bridge.call('POST', '/analytics/collect');
    const run = await finished(bridge.url, started.body.runId);
    expect(run).toMatchObject({ status: 'succeeded', posts_collected: POSTS, posts_failed: 0 });
    const calls = postsvc.calls().slice(before);
    expect(calls.filter((c) => c.status === 429)).toHaveLength(2);
    expect(calls.filter((c) => c.path === '/analytics/post' && c.status === 200)).toHaveLength(POSTS);
  });

  it('says what a run waits on while the provider throttles it (issue #40.2)', async () => {
    const bridge = await bridgeOn();
    await finished(bridge.url, 1);
    // Longer than a request retries by itself (3 s): the run waits it out, and says so.
    postsvc.faults.injectFault(
      providerThrottle({ method: 'POST', pathPrefix: '/analytics/social', retryAfterS: 4, times: 1 }),
    );
    const started = await bridge.call('POST', '/analytics/collect');
    await finished(bridge.url, started.body.runId);
    const activity = await bridge.call('GET', '/api/activity?type=collection.progress&limit=50');
    const waiting = (activity.body.data as { message: string; data: Record<string, unknown> }[]).find(
      (event) => event.data.runId === started.body.runId && event.data.waiting !== undefined,
    );
    expect(waiting?.data).toMatchObject({
      phase: 'started',
      waiting: { on: 'postsvc', reason: 'throttled', until: expect.any(String) },
    });
    expect(waiting?.message).toMatch(/waiting \d+ s: the posting provider asked the bridge to wait/);
  });

  it('marks a run that collects nothing COLLECTION_FAILED, in the log, the activity and /health', async () => {
    const bridge = await bridgeOn({ POSTSVC_API_KEY: 'not-the-provider-key' });
    const run = await finished(bridge.url, 1);
    expect(run).toMatchObject({ status: 'failed', error_code: 'COLLECTION_FAILED', posts_collected: 0 });
    expect(run.outcomes.every((o) => o.status === 'failed')).toBe(true);
    expect(run.error).toMatch(/API Key not valid/);
    const health = await bridge.call('GET', '/health');
    expect(health.body.lastCollection).toMatchObject({ id: 1, status: 'failed' });
    const activity = await bridge.call('GET', '/api/activity?type=collection.finished');
    expect(activity.body.data[0]).toMatchObject({ level: 'error', data: { code: 'COLLECTION_FAILED' } });
    expect((await bridge.call('GET', '/analytics/social-metrics')).body.data).toEqual([]);
  });

  it('answers 503 NOT_CONFIGURED when no provider is configured (nothing to collect from)', async () => {
    const bridge = await startTestBridge();
    cleanup.push(() => bridge.close());
    const { status, body } = await bridge.call('POST', '/analytics/collect');
    expect(status).toBe(503);
    expect(body).toMatchObject({ success: false, code: 'NOT_CONFIGURED' });
    expect(body.error).toMatch(/POSTSVC_URL/);
    expect((await bridge.call('GET', '/analytics/runs')).body.data).toEqual([]);
  });
});

describe('schedule across restarts', () => {
  it('does not catch up after a recent success; does when overdue; then the timer runs', async () => {
    const dataDir = freshDataDir();
    const first = await bridgeOn({}, dataDir);
    await finished(first.url, 1);
    await first.close();

    const second = await bridgeOn({}, dataDir);
    expect((await runs(second.url)).map((r) => r.id)).toEqual([1]);
    await second.close();

    // 0.0002 h = 0.72 s (a test tuning: COLLECT_INTERVAL_HOURS itself is at least 1): run 1 is now overdue.
    // A fixed wait on purpose: what makes the run overdue is wall-clock time passing; there is nothing to wait on.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const third = await bridgeOn({}, dataDir, { analytics: { intervalHours: 0.0002 } });
    const afterStart = await runs(third.url);
    expect(afterStart[0]).toMatchObject({ id: 2, trigger: 'catch-up' });
    const timed = await eventually(
      async () => (await runs(third.url)).find((r) => r.trigger === 'timer'),
      15_000,
    );
    expect(timed?.id).toBeGreaterThan(2);
  });

  it('a bridge killed mid-run leaves no half-written day; the next start fails the run and collects again', async () => {
    const dataDir = freshDataDir();
    // Post reads hang: the run has its social metrics in memory and is reading posts when killed.
    postsvc.faults.injectFault({
      method: 'POST',
      pathPrefix: '/analytics/post',
      delayMs: 60_000,
      times: 1000,
    });
    const env = { BRIDGE_DATA_DIR: dataDir, POSTSVC_URL: postsvc.url, POSTSVC_API_KEY: postsvc.apiKey };
    const killed: BridgeProcess = await spawnBridge(env);
    cleanup.push(() => void killed.child.kill('SIGKILL'));
    await eventually(async () => {
      const progress = await callBridge(killed.url, 'GET', '/api/activity?type=collection.progress');
      return progress.body.data.some((e: { data: { phase: string } }) => e.data.phase === 'social');
    });
    killed.child.kill('SIGKILL');
    await killed.exited;

    const db = new Database(path.join(dataDir, 'bridge.sqlite'), { readonly: true });
    try {
      for (const table of ['social_metrics', 'follower_counts', 'post_performance', 'post_latest']) {
        expect(db.prepare(`SELECT count(*) AS n FROM ${table}`).get(), table).toEqual({ n: 0 });
      }
      expect(db.prepare('SELECT id, status FROM collection_runs').all()).toEqual([
        { id: 1, status: 'running' },
      ]);
    } finally {
      db.close();
    }

    postsvc.faults.clearFaults();
    const restarted = await spawnBridge(env);
    cleanup.push(async () => {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    });
    const again = await finished(restarted.url, 2);
    expect(again).toMatchObject({ trigger: 'catch-up', status: 'succeeded' });
    const all = await runs(restarted.url);
    expect(all.find((r) => r.id === 1)).toMatchObject({ status: 'failed', error_code: 'COLLECTION_FAILED' });
    expect(all.find((r) => r.id === 1)?.error).toMatch(/interrupted/);
    const today = await callBridge(restarted.url, 'GET', '/analytics/social-metrics');
    expect(today.body.data).toHaveLength(7);
  }, 60_000);
});
