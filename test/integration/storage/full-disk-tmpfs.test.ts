import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { eventually, TEST_API_KEY } from '../../support/bridge.js';
import { runCli } from '../../support/process.js';
import { freePort } from '../../support/ports.js';

/*
 * Issue #24.1 as the operator met it: a data dir on a small filesystem that fills up (an 8 MB
 * tmpfs), the database, its WAL and the log all on it. Only where the machine lets this test
 * mount one (root, tmpfs allowed); full-disk.test.ts covers the same without root
 * (max_page_count, /dev/full).
 */

function mountSmallTmpfs(): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bridge-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

const mounted = mountSmallTmpfs();
afterAll(() => {
  if (!mounted) return;
  execFileSync('umount', ['-l', mounted], { stdio: 'ignore' });
  rmSync(mounted, { recursive: true, force: true });
});

async function answered(
  url: string,
  init: RequestInit,
): Promise<{ status: number | null; code: string | null }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
    const text = await response.text();
    let code: string | null = null;
    try {
      code = (JSON.parse(text) as { code?: string }).code ?? null;
    } catch {
      // not JSON
    }
    return { status: response.status, code };
  } catch {
    return { status: null, code: null };
  }
}

it.skipIf(mounted === null)(
  'an 8 MB data dir filled up: every request answered (503 on webhooks, 507 on the API), SIGTERM ends it',
  async () => {
    const dataDir = mounted!;
    const port = await freePort();
    const cli = runCli({
      BRIDGE_HOST: '127.0.0.1',
      BRIDGE_PORT: String(port),
      BRIDGE_DATA_DIR: dataDir,
      BRIDGE_SANDBOX: '0',
      LOG_LEVEL: 'info',
    });
    try {
      await eventually(() => cli.output().stdout.includes('Dashboard'), 20_000);
      const headers = { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' };
      const answers: Array<{ status: number | null; code: string | null }> = [];
      // Each test webhook logs a 200 kB delivery: 8 MB fill within a few dozen.
      for (let n = 0; n < 80; n++) {
        const body = JSON.stringify({ note: `${n}:${'x'.repeat(200_000)}` });
        answers.push(
          await answered(`${cli.url}/webhooks/test`, {
            method: 'POST',
            headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json' },
            body,
          }),
        );
        answers.push(
          await answered(`${cli.url}/analytics/content-ingest`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ contentId: `c-${n}`, platform: 'videosite', views: n }),
          }),
        );
        answers.push(await answered(`${cli.url}/health`, { method: 'GET' }));
      }
      expect(answers.filter((a) => a.status === null)).toEqual([]);
      expect(answers.some((a) => a.status === 503 && a.code === 'STORAGE_FULL')).toBe(true);
      expect(answers.filter((a) => a.status === 500)).toEqual([]);
      const health = await answered(`${cli.url}/health`, { method: 'GET' });
      expect(health.status).toBe(200);

      const sent = Date.now();
      cli.child.kill('SIGTERM');
      const exit = await Promise.race([
        cli.exited,
        new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 10_000)),
      ]);
      expect(exit).not.toBe('still running');
      expect(Date.now() - sent).toBeLessThan(10_000);
    } finally {
      if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    }
  },
  120_000,
);
