import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../support/bridge.js';
import { runCli, runCliOnTerminal, type BridgeProcess } from '../../support/process.js';
import { freePort } from '../../support/ports.js';
import { tempDir } from '../../support/temp-dir.js';
import { eventually } from '../../support/wait.js';

/**
 * What `npm start` / `serve` prints (issue #14.10): a few lines for people, among them the dashboard's
 * address; the request log goes to the log file under the data dir, and to stdout only with
 * LOG_LEVEL=debug. The link that signs the local browser in (the key in the URL fragment) only on a
 * terminal: a service's stdout ends up in a journal that others read (issue #35.8).
 */
const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function startCli(
  extraEnv: Record<string, string> = {},
  run: (env: Record<string, string>) => BridgeProcess = runCli,
): Promise<BridgeProcess & { dataDir: string }> {
  const data = tempDir('startup-output');
  cleanup.push(data.remove);
  const cli = run({
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
  it('on a pipe (a service journal): the address and where to read the key, never the key; no request log', async () => {
    const cli = await startCli();
    await someRequests(cli.url);
    const logFile = path.join(cli.dataDir, 'logs', 'bridge.log');
    await eventually(
      () => existsSync(logFile) && readFileSync(logFile, 'utf8').includes('/api/activity'),
      10_000,
    );

    const { stdout } = cli.output();
    expect(stdout).not.toContain(TEST_API_KEY);
    expect(stdout).not.toContain('#key=');
    expect(stdout).toContain(`Dashboard: ${cli.url}  (`);
    expect(stdout).toContain('API key: the BRIDGE_API_KEY environment variable this bridge was started with');
    // Lines for people only: not one JSON log line.
    expect(stdout.split('\n').filter((line) => line.trim().startsWith('{'))).toEqual([]);
    expect(readFileSync(logFile, 'utf8')).not.toContain(TEST_API_KEY);
  });

  it('on a pipe, a key kept in config.json: names the file, not the key', async () => {
    const cli = await startCli({ BRIDGE_API_KEY: '' });
    const configPath = path.join(cli.dataDir, 'config.json');
    const key = (JSON.parse(readFileSync(configPath, 'utf8')) as { BRIDGE_API_KEY: string }).BRIDGE_API_KEY;
    const { stdout } = cli.output();
    expect(stdout).not.toContain(key);
    expect(stdout).not.toContain(encodeURIComponent(key));
    expect(stdout).toContain(`API key: BRIDGE_API_KEY in ${configPath}`);
  });

  it('on a terminal: the link that opens the dashboard signed in', async () => {
    const cli = await startCli({}, runCliOnTerminal);
    expect(cli.output().stdout).toContain(
      `Dashboard: ${cli.url}/#key=${encodeURIComponent(TEST_API_KEY)}  (opens signed in on this computer)`,
    );
  });

  it('LOG_LEVEL=debug mirrors the log on stdout', async () => {
    const cli = await startCli({ LOG_LEVEL: 'debug' });
    await someRequests(cli.url);
    await eventually(() => cli.output().stdout.includes('"url":"/api/activity"'), 10_000);
  });
});
