import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type BridgeProcess } from '../../support/process.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * A BRIDGE_DATA_DIR the bridge cannot use is a configuration error (DESIGN §3): exit 2 with one
 * line naming the key, the folder and why, before anything else starts. Node's recursive mkdir
 * loops forever on a missing folder under /proc, so the CLI used to hang there.
 */

const data = tempDir('bridge-data-dir-unusable');
const started: BridgeProcess[] = [];
afterAll(() => {
  for (const cli of started) cli.child.kill('SIGKILL');
  data.remove();
});

/** The CLI's exit code and stderr lines; null code if it is still running after `withinMs`. */
async function exitOf(dataDir: string, withinMs = 12_000) {
  const cli = runCli({ BRIDGE_DATA_DIR: dataDir, BRIDGE_PORT: '0', BRIDGE_SANDBOX: '0' });
  started.push(cli);
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), withinMs));
  const exit = await Promise.race([cli.exited, timeout]);
  const lines = cli.output().stderr.trim().split('\n');
  return { code: exit?.code ?? null, lines };
}

describe('an unusable BRIDGE_DATA_DIR (issue #12.11)', () => {
  it('a folder that cannot be created (/proc/...): exits 2 with one line instead of hanging', async () => {
    const dir = '/proc/studio-bridge-test/data';
    const { code, lines } = await exitOf(dir);
    expect(code).toBe(2);
    expect(lines).toEqual([
      `studio-bridge: invalid configuration: BRIDGE_DATA_DIR: ${dir} cannot be used: the folder cannot be created there (the file system does not allow it)`,
    ]);
  }, 20_000);

  it('a file, not a folder: exits 2 with one line', async () => {
    const file = path.join(data.path, 'not-a-folder');
    writeFileSync(file, 'x');
    const { code, lines } = await exitOf(file);
    expect(code).toBe(2);
    expect(lines).toEqual([
      `studio-bridge: invalid configuration: BRIDGE_DATA_DIR: ${file} cannot be used: it is a file, not a folder`,
    ]);
    const under = path.join(file, 'data');
    const nested = await exitOf(under);
    expect(nested.code).toBe(2);
    expect(nested.lines).toEqual([
      `studio-bridge: invalid configuration: BRIDGE_DATA_DIR: ${under} cannot be used: ${file} is a file, not a folder`,
    ]);
  }, 30_000);

  // A folder that exists but where nothing may be written (even root may not write in /sys/kernel).
  it.runIf(existsSync('/sys/kernel'))(
    'a folder without write permission: exits 2 with one line',
    async () => {
      const { code, lines } = await exitOf('/sys/kernel');
      expect(code).toBe(2);
      expect(lines).toEqual([
        'studio-bridge: invalid configuration: BRIDGE_DATA_DIR: /sys/kernel cannot be used: no permission to write in it',
      ]);
    },
    20_000,
  );
});
