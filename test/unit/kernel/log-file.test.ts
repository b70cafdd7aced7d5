import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogFile } from '../../../main/kernel/log-file.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';
import { eventually } from '../../support/wait.js';

/*
 * Issue #24.1, DESIGN §7: logging that cannot write drops lines and counts them; it never blocks
 * and never retries a line forever. /dev/full answers every write with a real ENOSPC.
 */

const dirs: TempDir[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

describe('LogFile', () => {
  it('writes lines in order to a file', async () => {
    const dir = tempDir('log-file');
    dirs.push(dir);
    const file = path.join(dir.path, 'bridge.log');
    const log = new LogFile(file);
    for (let n = 0; n < 100; n++) log.write(`{"n":${n}}\n`);
    await eventually(() => readFileSync(file, 'utf8').split('\n').length === 101);
    log.close();
    expect(readFileSync(file, 'utf8').split('\n').slice(0, 3)).toEqual(['{"n":0}', '{"n":1}', '{"n":2}']);
    expect(log.health()).toEqual({ dropped: 0, failing: null });
  });

  it.skipIf(process.platform !== 'linux')(
    'on /dev/full: drops and counts every line, and close returns at once',
    async () => {
      const log = new LogFile('/dev/full', { retryMs: 50 });
      for (let n = 0; n < 100; n++) log.write(`{"n":${n}}\n`);
      await eventually(() => log.health().dropped === 100, 5_000, 10);
      expect(log.health()).toEqual({ dropped: 100, failing: 'ENOSPC' });
      // Lines written while it fails wait for the next try (or are dropped at stop): never a hang.
      log.write('{"late":true}\n');
      log.close();
      expect(log.health().dropped).toBe(101);
    },
  );

  it('drops lines beyond the queue bound at once, while a write is in flight', () => {
    const dir = tempDir('log-file');
    dirs.push(dir);
    const log = new LogFile(path.join(dir.path, 'bridge.log'), { maxQueuedBytes: 100 });
    log.write(`${'a'.repeat(60)}\n`); // taken by the first write at once
    log.write(`${'b'.repeat(60)}\n`); // queued
    log.write(`${'c'.repeat(60)}\n`); // beyond the bound
    expect(log.health().dropped).toBe(1);
    log.close();
  });
});
