import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../support/bridge.js';
import { runCli, type BridgeProcess } from '../../support/process.js';
import { freePort } from '../../support/ports.js';
import { tempDir } from '../../support/temp-dir.js';
import { eventually } from '../../support/wait.js';

/**
 * What `npm start` / `serve` prints (issue #14.10): a few lines for people, among them a dashboard
 * link that signs the local browser in (the key in the URL fragment); the request log goes to the
 * log file under the data dir, and to stdout only with LOG_LEVEL=debug.
 */
const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function startCli(extraEnv: Record<string, string> = {}): Promise<BridgeProcess & { dataDir: string }> {
  const data = tempDir('startup-output');
  cleanup.push(data.remove);
  const cli = runCli({
    BRIDGE_HOST: '127.0.0.1',
    BRIDGE_PORT: String(await freePort()),
    BRIDGE_DATA_DIR: data.path,
    BRIDGE_SANDBOX: '0',
    ...extraEnv,
  });
  cleanup.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });
  await eventually(() => cli.output().stdout.includes('Dashboard'), 20_000);
  return { ...cli, dataDir: data.path };
}

async function someRequests(url: string): Promise<void> {
  for (const route of ['/api/settings', '/api/activity', '/nope']) {
    await fetch(`${url}${route}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } });
  }
}

describe('start-up output', () => {
  it('prints a signed-in dashboard link and no request log; the log file has the requests, not the key', async () => {
    const cli = await startCli();
    await someRequests(cli.url);
    const logFile = path.join(cli.dataDir, 'logs', 'bridge.log');
    await eventually(
      () => existsSync(logFile) && readFileSync(logFile, 'utf8').includes('/api/activity'),
      10_000,
    );

    const { stdout } = cli.output();
    expect(stdout).toContain(`Dashboard: ${cli.url}/#key=${encodeURIComponent(TEST_API_KEY)}`);
    // Lines for people only: not one JSON log line.
    expect(stdout.split('\n').filter((line) => line.trim().startsWith('{'))).toEqual([]);
    expect(readFileSync(logFile, 'utf8')).not.toContain(TEST_API_KEY);
  });

  it('LOG_LEVEL=debug mirrors the log on stdout', async () => {
    const cli = await startCli({ LOG_LEVEL: 'debug' });
    await someRequests(cli.url);
    await eventually(() => cli.output().stdout.includes('"url":"/api/activity"'), 10_000);
  });
});
