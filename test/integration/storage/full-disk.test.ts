import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';
import { runCli } from '../../support/process.js';
import { freePort } from '../../support/ports.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/*
 * Issue #24.1, DESIGN §4 and §7: a full disk is an error, never a hang. On an 8 MB data dir
 * filled up, the bridge gave 18 answers and then none: the log writer met ENOSPC and retried
 * forever, and SIGTERM did not end it. Without root, two real failures stand in for a full
 * disk: SQLite's max_page_count (a real SQLITE_FULL: the test-only growth limit) and a log file
 * that is /dev/full (a real ENOSPC on every write; the test-only log path).
 */

const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The bridge opens no link in its data dir (issue #35.5): the log goes to /dev/full by a test-only option. */
const LOG_ON_DEV_FULL = '/dev/full';

function dataDir(): TempDir {
  const dir = tempDir('full-disk');
  cleanup.push(dir.remove);
  return dir;
}

/** One request, answered or not within 5 s (not: the status is null). */
async function attempt(
  url: string,
  init: { method: string; body?: string; key?: boolean; webhook?: boolean },
): Promise<{ status: number | null; retryAfter: string | null; code: string | null }> {
  try {
    const response = await fetch(url, {
      method: init.method,
      headers: {
        ...(init.key === false ? {} : { authorization: `Bearer ${TEST_API_KEY}` }),
        ...(init.webhook ? { 'x-api-key': TEST_API_KEY } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: init.body }),
      signal: AbortSignal.timeout(5_000),
    });
    const text = await response.text();
    let code: string | null = null;
    try {
      code = (JSON.parse(text) as { code?: string }).code ?? null;
    } catch {
      // not JSON
    }
    return { status: response.status, retryAfter: response.headers.get('retry-after'), code };
  } catch {
    return { status: null, retryAfter: null, code: null };
  }
}

const filler = (n: number) => JSON.stringify({ note: `${n}:${'x'.repeat(60_000)}` });

describe('a full disk', () => {
  it('every request is answered: webhooks 503 + Retry-After, API writes 507, reads 200; /health says so; space back, it recovers', async () => {
    const dir = dataDir();
    let bridge: TestBridge | null = await startTestBridge(
      {},
      {
        dataDir: dir.path,
        logLevel: 'info',
        tuning: { storage: { testGrowthLimitPages: 40, testLogFile: LOG_ON_DEV_FULL } },
      },
    );
    cleanup.push(() => bridge?.stop());
    const url = bridge.url;

    // Fill the database with test webhooks (each logs a 60 kB delivery) and content metrics.
    const answers: Awaited<ReturnType<typeof attempt>>[] = [];
    for (let n = 0; n < 30; n++) {
      answers.push(await attempt(`${url}/webhooks/test`, { method: 'POST', body: filler(n), webhook: true }));
      answers.push(
        await attempt(`${url}/analytics/content-ingest`, {
          method: 'POST',
          body: JSON.stringify({
            contentId: `content-${n}`,
            platform: 'videosite',
            views: n,
            contentName: `${n} ${'y'.repeat(290)}`,
          }),
        }),
      );
      answers.push(await attempt(`${url}/api/activity?limit=5`, { method: 'GET' }));
    }
    // Rows of metrics fill what pages are left over (a few hundred bytes each).
    for (let n = 30; n < 300; n++) {
      const write = await attempt(`${url}/analytics/content-ingest`, {
        method: 'POST',
        body: JSON.stringify({
          contentId: `content-${n}`,
          platform: 'videosite',
          views: n,
          contentName: `${n} ${'y'.repeat(290)}`,
        }),
      });
      answers.push(write);
      if (write.status === 507) break;
    }
    const answered = answers.filter((a) => a.status !== null).length;
    // The figure for the closing note (before the fix: 18 answers, then none).
    console.log(`full disk: ${answered} of ${answers.length} requests answered`);
    expect(answered).toBe(answers.length);

    const webhooks = answers.slice(0, 90).filter((_, i) => i % 3 === 0);
    const writes = [...answers.slice(0, 90).filter((_, i) => i % 3 === 1), ...answers.slice(90)];
    const reads = answers.slice(0, 90).filter((_, i) => i % 3 === 2);
    // Full: webhooks are answered 503 with Retry-After (EspoCRM retries a 503, drops a 507) ...
    const refused = webhooks.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(a.code).toBe('STORAGE_FULL');
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    expect(webhooks.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    // ... API writes 507 STORAGE_FULL; reads still work.
    expect(writes.some((a) => a.status === 507 && a.code === 'STORAGE_FULL')).toBe(true);
    expect(writes.every((a) => a.status === 200 || a.status === 507)).toBe(true);
    expect(reads.every((a) => a.status === 200)).toBe(true);

    // /health: degraded for anyone; with the key, why.
    const anonymous = await attempt(`${url}/health`, { method: 'GET', key: false });
    expect(anonymous.status).toBe(200);
    const health = await bridge.call('GET', '/health');
    expect(health.body.status).toBe('degraded');
    expect(health.body.reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^storage full: the database cannot grow/),
        expect.stringMatching(/^log: \d+ lines? dropped \(ENOSPC\)/),
      ]),
    );
    expect((await bridge.call('GET', '/health', { key: null })).body).toMatchObject({ status: 'degraded' });
    expect((await bridge.call('GET', '/health', { key: null })).body.reasons).toBeUndefined();

    // Space returns (what retention would do: old deliveries deleted); the bridge recovers by itself.
    const other = new Database(path.join(dir.path, 'bridge.sqlite'));
    other.prepare('DELETE FROM webhook_deliveries').run();
    other.close();
    await eventually(async () => {
      const again = await attempt(`${url}/webhooks/test`, {
        method: 'POST',
        body: '{"after":1}',
        webhook: true,
      });
      return again.status === 200;
    });
    const recovered = await bridge.call('GET', '/health');
    expect(recovered.body.reasons ?? []).not.toContainEqual(expect.stringMatching(/^storage full/));

    const stopping = bridge;
    bridge = null;
    await stopping.stop();
  }, 120_000);

  it('a log on /dev/full: the CLI keeps answering and SIGTERM ends it within 10 s', async () => {
    const dir = dataDir();
    const port = await freePort();
    const cli = runCli(
      {
        BRIDGE_HOST: '127.0.0.1',
        BRIDGE_PORT: String(port),
        BRIDGE_DATA_DIR: dir.path,
        BRIDGE_SANDBOX: '0',
        LOG_LEVEL: 'info',
      },
      ['serve'],
      { testLogFile: LOG_ON_DEV_FULL },
    );
    cleanup.push(() => {
      if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    });
    await eventually(() => cli.output().stdout.includes('Dashboard'), 20_000);

    const answers = [];
    for (let n = 0; n < 60; n++) answers.push(await attempt(`${cli.url}/api/activity`, { method: 'GET' }));
    expect(answers.filter((a) => a.status === 200).length).toBe(60);
    const health = await attempt(`${cli.url}/health`, { method: 'GET' });
    expect(health.status).toBe(200);

    const sent = Date.now();
    cli.child.kill('SIGTERM');
    const exit = await Promise.race([
      cli.exited,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 10_000)),
    ]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - sent).toBeLessThan(10_000);
  }, 60_000);
});
