import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/ports.js';
import { tempDir } from '../support/temp-dir.js';
import { runLoad } from './load.js';
import type { Bench, BenchResult } from './report.js';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const KEY = 'bench-start-key-0123456789';
const WEBHOOKS = Number(process.env.BENCH_START_WEBHOOKS ?? 20_000);

/** Resident memory of a process, from /proc (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

async function untilHealthy(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bridge exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * The built headless bridge (`node dist/main/cli.js serve`, no sandbox, a fresh data dir):
 * time from spawn to the first /health 200, resident memory idle, after 20,000 webhooks at
 * 100 connections, and again after 10 s of quiet.
 */
export const startBench: Bench = {
  name: 'start',
  async run(): Promise<BenchResult[]> {
    const cli = join(repoRoot, 'dist/main/cli.js');
    if (!existsSync(cli)) throw new Error('bench start: build first (npm run build)');
    const data = tempDir('bench-start');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'serve'], {
      env: {
        PATH: process.env.PATH,
        BRIDGE_PORT: String(port),
        BRIDGE_DATA_DIR: data.path,
        BRIDGE_API_KEY: KEY,
        BRIDGE_SANDBOX: '0',
      },
      stdio: 'ignore',
    });
    try {
      await untilHealthy(url, child);
      const startMs = performance.now() - started;
      await new Promise((r) => setTimeout(r, 2_000));
      const idle = rssMb(child.pid!);
      const load = await runLoad({
        url: `${url}/webhooks/test`,
        headers: { 'x-api-key': KEY },
        body: JSON.stringify({ test: true, source: 'bench' }),
        requests: WEBHOOKS,
        concurrency: 100,
      });
      const loaded = rssMb(child.pid!);
      await new Promise((r) => setTimeout(r, 10_000));
      const after = rssMb(child.pid!);
      return [
        {
          name: 'headless start to /health 200',
          figures: { ms: Math.round(startMs), 'idle RSS MB': idle },
          note: 'built tree, no sandbox, fresh data dir',
        },
        {
          name: `RSS after ${WEBHOOKS} webhooks at 100 connections`,
          figures: {
            'RSS MB': loaded,
            'RSS 10 s later MB': after,
            'req/s': Math.round(load.perSecond),
            errors: load.errors,
          },
        },
      ];
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      data.remove();
    }
  },
};
