import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callBridge, eventually } from '../../support/bridge.js';
import { runCli, spawnBridge, type BridgeProcess } from '../../support/process.js';
import { tempDir } from '../../support/temp-dir.js';

const data = tempDir('bridge-restart');
const dataDir = data.path;
const running: BridgeProcess[] = [];
afterAll(() => {
  for (const bridge of running) bridge.child.kill('SIGKILL');
  data.remove();
});

describe('durable job queue across a crash', () => {
  it('finishes jobs pending at kill -9 exactly once after the restart', async () => {
    const first = await spawnBridge({ BRIDGE_DATA_DIR: dataDir });
    running.push(first);
    // Three slow jobs: each request is cut off client-side once the job is durably queued.
    const deliveryIds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const controller = new AbortController();
      const pending = fetch(`${first.url}/webhooks/test`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'test-key-0123456789abcdef' },
        body: JSON.stringify({ delayMs: 2_000, n: i }),
        signal: controller.signal,
      }).catch(() => undefined);
      await eventually(async () => {
        const jobs = await callBridge(first.url, 'GET', '/api/jobs?kind=webhook.test');
        return jobs.body.data.length === i + 1;
      });
      controller.abort();
      await pending;
    }
    const before = await callBridge(first.url, 'GET', '/api/jobs?kind=webhook.test');
    expect(before.body.data.every((j: { status: string }) => j.status !== 'done')).toBe(true);
    for (const job of before.body.data) deliveryIds.push(job.id);

    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await spawnBridge({ BRIDGE_DATA_DIR: dataDir });
    running.push(second);
    const done = await eventually(async () => {
      const jobs = await callBridge(second.url, 'GET', '/api/jobs?kind=webhook.test');
      const all = jobs.body.data as { status: string }[];
      return all.length === 3 && all.every((j) => j.status === 'done') ? all : null;
    }, 20_000);
    expect(done).toHaveLength(3);

    const activity = await callBridge(second.url, 'GET', '/api/activity?limit=500');
    const events = activity.body.data as { type: string; data: { deliveryId?: number } }[];
    const processed = events.filter((e) => e.type === 'webhook.test').map((e) => e.data.deliveryId);
    expect(processed).toHaveLength(3);
    expect(new Set(processed).size).toBe(3);
    expect(events.some((e) => e.type === 'jobs.recovered')).toBe(true);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  }, 60_000);
});

describe('headless CLI', () => {
  it('exits 2 with one line per bad config key', async () => {
    const cli = runCli({
      BRIDGE_DATA_DIR: dataDir,
      BRIDGE_PORT: 'eighty',
      CRM_URL: 'not a url',
      POSTSVC_PLAN: 'platinum',
      PUBLISH_ROUTES: '{"Videosite":{"livestream":"no-slash"}}',
    });
    const { code } = await cli.exited;
    expect(code).toBe(2);
    const lines = cli.output().stderr.trim().split('\n');
    expect(lines[0]).toBe('studio-bridge: invalid configuration');
    const keys = lines.slice(1).map((l) => l.split(/[.:]/)[0]);
    expect(keys).toEqual(
      expect.arrayContaining(['BRIDGE_PORT', 'CRM_URL', 'POSTSVC_PLAN', 'PUBLISH_ROUTES']),
    );
    expect(lines.length).toBeGreaterThanOrEqual(5);
  }, 20_000);

  it('on SIGTERM finishes the in-flight request, closes the database and exits 0', async () => {
    const bridge = await spawnBridge({ BRIDGE_DATA_DIR: dataDir });
    running.push(bridge);
    const testJobs = async () => {
      const jobs = await callBridge(bridge.url, 'GET', '/api/jobs?kind=webhook.test&limit=500');
      return (jobs.body.data as unknown[]).length;
    };
    const jobsBefore = await testJobs();
    const inFlight = callBridge(bridge.url, 'POST', '/webhooks/test', { body: { delayMs: 700 } });
    // SIGTERM once the request is being handled: its job is queued.
    await eventually(async () => (await testJobs()) > jobsBefore);
    bridge.child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect((await bridge.exited).code).toBe(0);
    expect(bridge.output().stdout).toContain('finishing in-flight requests');
    // Its connection, kept alive after the answer, was closed as it went idle, not forced after 10 s.
    expect(readFileSync(path.join(dataDir, 'logs', 'bridge.log'), 'utf8')).not.toContain('still open');
  }, 30_000);
});
