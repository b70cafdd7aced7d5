import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, isProcessAlive, processStateOf } from '../../../main/kernel/data-dir-lock.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';
import { eventually } from '../../support/wait.js';

/*
 * Issue #24.4, DESIGN §7: a bridge killed with -9 stays a zombie until its parent reaps it, and
 * `kill(pid, 0)` still succeeds on a zombie: a restart was refused for about a second. A zombie
 * (state Z in /proc/<pid>/stat) holds nothing: it counts as gone.
 */

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

/**
 * A real zombie: Node reaps only the children it spawned, so the zombie is a grandchild. The shell
 * starts a short sleep in the background, prints its pid and execs into a long `sleep`, which
 * never waits for children: the short one ends after the exec (so the shell cannot reap it) and
 * stays a zombie for as long as the long one lives.
 */
async function zombie(): Promise<number> {
  const parent = spawn('/bin/sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  cleanup.push(() => parent.kill('SIGKILL'));
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
  );
  await eventually(() => processStateOf(pid) === 'Z', 5_000, 10);
  return pid;
}

describe('processStateOf', () => {
  it('reads the state after the command name, whatever the name holds', () => {
    const stat = (name: string, state: string) =>
      `4242 (${name}) ${state} 1 4242 4242 0 -1 4194560 108 0 0 0`;
    expect(processStateOf(4242, () => stat('node', 'S'))).toBe('S');
    expect(processStateOf(4242, () => stat('node', 'Z'))).toBe('Z');
    // A command name may hold spaces and parentheses: the state follows the last ')'.
    expect(processStateOf(4242, () => stat('a) Z (b', 'R'))).toBe('R');
    expect(processStateOf(4242, () => null)).toBeNull();
    expect(processStateOf(4242, () => 'garbage')).toBeNull();
  });
});

describe('a zombie lock holder', () => {
  it.skipIf(process.platform !== 'linux')('is not alive', async () => {
    const pid = await zombie();
    expect(isProcessAlive(pid)).toBe(false);
    expect(isProcessAlive(process.pid)).toBe(true);
  });

  it.skipIf(process.platform !== 'linux')('leaves its lock to the next bridge at once', async () => {
    const pid = await zombie();
    const dir: TempDir = tempDir('zombie-lock');
    cleanup.push(dir.remove);
    const lockPath = path.join(dir.path, 'bridge.lock');
    writeFileSync(
      lockPath,
      `${JSON.stringify({ pid, url: 'http://127.0.0.1:1', startedAt: '2024-05-01T10:00:00.000Z' })}\n`,
    );
    const lock = await acquireDataDirLock(dir.path);
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
  });
});
