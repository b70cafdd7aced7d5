import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callBridge, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { freePort } from '../../support/ports.js';
import { startSandboxCrm, startSandboxGateway } from '../../../main/sandbox/index.js';
import { runCli, spawnBridge, type BridgeProcess } from '../../support/process.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';
import { eventually } from '../../support/wait.js';

/*
 * DESIGN §7 "One bridge per data dir": the first bridge holds <dataDir>/bridge.lock; a second
 * one on the same dir exits 1 naming the first and never resumes the jobs the first is running.
 */

const processes: BridgeProcess[] = [];
const inProcess: TestBridge[] = [];
const dirs: TempDir[] = [];
const peers: { stop(): Promise<void> }[] = [];

afterEach(async () => {
  for (const bridge of processes.splice(0)) {
    if (bridge.child.exitCode === null && bridge.child.signalCode === null) {
      bridge.child.kill('SIGKILL');
      await bridge.exited;
    }
  }
  for (const bridge of inProcess.splice(0)) await bridge.stop();
  for (const peer of peers.splice(0)) await peer.stop();
  for (const dir of dirs.splice(0)) dir.remove();
});

function dataDir(): string {
  const dir = tempDir('bridge-lock');
  dirs.push(dir);
  return dir.path;
}

function lockOf(dir: string): { pid: number; url: string | null; startedAt: string } | null {
  const file = path.join(dir, 'bridge.lock');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

/** A second CLI on `dir`: waits until it has either exited or is serving /health. */
async function startSecond(dir: string) {
  const cli = runCli({
    BRIDGE_HOST: '127.0.0.1',
    BRIDGE_PORT: String(await freePort()),
    BRIDGE_SANDBOX: '0',
    BRIDGE_DATA_DIR: dir,
  });
  processes.push(cli);
  const outcome = await eventually(
    async () => {
      if (cli.child.exitCode !== null) return 'exited';
      const response = await fetch(`${cli.url}/health`); // throws while not listening
      return response.ok && 'serving';
    },
    20_000,
    100,
  );
  return { cli, outcome };
}

describe('one bridge per data dir', () => {
  it('a second bridge on the same data dir exits 1 naming the first and leaves its running job alone', async () => {
    // A slow job, running in the first bridge: a publish the gateway takes 15 s to answer (a test
    // webhook's job sleeps 2 s at most). Long enough to still run when the second bridge has come and gone.
    const crm = await startSandboxCrm();
    const gateway = await startSandboxGateway();
    peers.push(crm, gateway);
    const dir = dataDir();
    const first = await spawnBridge({
      BRIDGE_DATA_DIR: dir,
      CRM_URL: crm.url,
      CRM_API_KEY: crm.apiKey,
      GATEWAY_URL: gateway.url,
      GATEWAY_API_KEY: gateway.apiKey,
    });
    processes.push(first);
    gateway.faults.injectFault({
      method: 'POST',
      pathPrefix: '/videosite/upload',
      delayMs: 15_000,
      times: 1,
    });
    const record = crm.create('PlatformPublish', {
      platform: 'Videosite',
      publishType: 'Upload',
      status: 'Queued',
      title: 'Slow upload',
    });

    // The request is cut off once the job runs.
    const controller = new AbortController();
    const pending = fetch(`${first.url}/webhooks/platform-created`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'test-key-0123456789abcdef' },
      body: JSON.stringify([{ id: record.id, status: 'Queued' }]),
      signal: controller.signal,
    }).catch(() => undefined);
    const job = await eventually(async () => {
      const jobs = await callBridge(first.url, 'GET', '/api/jobs?kind=webhook.item');
      const found = (jobs.body.data as { id: number; status: string; attempts: number }[])[0];
      return found?.status === 'running' ? found : null;
    });
    controller.abort();
    await pending;

    const { cli, outcome } = await startSecond(dir);
    expect(outcome).toBe('exited');
    expect((await cli.exited).code).toBe(1);
    const stderr = await eventually(() => (cli.output().stderr.endsWith('\n') ? cli.output().stderr : null));
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`pid ${first.child.pid}`);
    expect(lines[0]).toContain(first.url);
    expect(lines[0]).toContain(dir);

    // The first keeps serving, and its job is still its own: running, claimed once.
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    const during = await callBridge(first.url, 'GET', '/api/jobs?kind=webhook.item');
    expect(during.body.data).toEqual([
      expect.objectContaining({ id: job.id, status: 'running', attempts: 1 }),
    ]);

    // It finishes there exactly once; nothing was "recovered".
    const done = await eventually(async () => {
      const jobs = await callBridge(first.url, 'GET', '/api/jobs?kind=webhook.item');
      const [only] = jobs.body.data as { status: string; attempts: number }[];
      return only?.status === 'done' ? only : null;
    }, 30_000);
    expect(done.attempts).toBe(1);
    expect(crm.get('PlatformPublish', record.id)?.status).toBe('Published');
    expect(gateway.publishes().filter((p) => p.body.id === record.id)).toHaveLength(1);
    const activity = await callBridge(first.url, 'GET', '/api/activity?limit=500');
    const events = activity.body.data as { type: string }[];
    expect(events.some((e) => e.type === 'jobs.recovered')).toBe(false);
    expect(lockOf(dir)).toMatchObject({ pid: first.child.pid, url: first.url });
  }, 60_000);

  it('takes over the stale lock a killed (kill -9) bridge left', async () => {
    const dir = dataDir();
    const first = await spawnBridge({ BRIDGE_DATA_DIR: dir });
    processes.push(first);
    expect(lockOf(dir)).toMatchObject({ pid: first.child.pid, url: first.url });
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(lockOf(dir)).toMatchObject({ pid: first.child.pid }); // left behind: stale

    const second = await spawnBridge({ BRIDGE_DATA_DIR: dir });
    processes.push(second);
    expect((await fetch(`${second.url}/health`)).status).toBe(200);
    expect(lockOf(dir)).toMatchObject({ pid: second.child.pid, url: second.url });
  }, 60_000);

  it('a clean stop (SIGTERM) releases the lock', async () => {
    const dir = dataDir();
    const bridge = await spawnBridge({ BRIDGE_DATA_DIR: dir });
    processes.push(bridge);
    expect(lockOf(dir)).toMatchObject({ pid: bridge.child.pid });
    bridge.child.kill('SIGTERM');
    expect((await bridge.exited).code).toBe(0);
    expect(lockOf(dir)).toBeNull();
  }, 30_000);

  it('in one process: a second startBridge on the same data dir rejects with DataDirInUseError', async () => {
    const dir = dataDir();
    const first = await startTestBridge({}, { dataDir: dir });
    inProcess.push(first);
    const second = startTestBridge({}, { dataDir: dir }).then((bridge) => {
      inProcess.push(bridge); // stopped by afterEach should it start after all
      return bridge;
    });
    await expect(second).rejects.toMatchObject({
      name: 'DataDirInUseError',
      pid: process.pid,
      url: first.url,
      dataDir: dir,
    });
    expect((await first.call('GET', '/health')).status).toBe(200);

    // Stopped, it lets the next one in.
    await inProcess.pop()!.stop();
    const next = await startTestBridge({}, { dataDir: dir });
    inProcess.push(next);
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, url: next.url });
  });
});
