import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startTestBridge } from '../../support/bridge.js';
import { cliOutcome } from '../../support/process.js';
import { tempDir } from '../../support/temp-dir.js';

/*
 * Issue #35.5: with config.json and logs/bridge.log symlinked in a world-writable data dir,
 * Settings overwrote (and chmodded) the link's target and the log appended to it. Files in the
 * data dir are opened without following links (a link is refused in one line naming it); the data
 * dir itself may be a link (resolved once, logged). On POSIX a data dir that others can write, or
 * that another non-root user owns, is refused with how to fix it.
 */

const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function scratch(): string {
  const dir = tempDir('bridge-links');
  cleanup.push(dir.remove);
  return dir.path;
}

/** A data dir and, beside it, a file someone would like the bridge to write to (0644). */
function dataDirAndVictim(content = VICTIM): { dir: string; victim: string } {
  const root = scratch();
  const dir = path.join(root, 'data');
  mkdirSync(dir, { mode: 0o700 });
  const victim = path.join(root, 'victim.txt');
  writeFileSync(victim, content, { mode: 0o644 });
  chmodSync(victim, 0o644);
  return { dir, victim };
}

const VICTIM = 'precious\n';

function expectUntouched(victim: string, content = VICTIM): void {
  expect(readFileSync(victim, 'utf8')).toBe(content);
  expect(statSync(victim).mode & 0o777).toBe(0o644);
}

async function refusedStart(dir: string) {
  const outcome = await cliOutcome({ BRIDGE_DATA_DIR: dir, BRIDGE_SANDBOX: '0' });
  cleanup.push(outcome.stop);
  return { code: outcome.code, lines: outcome.stderr.trim().split('\n') };
}

const linkLine = (file: string) =>
  `studio-bridge: ${file} is a symbolic link; the bridge opens no link in its data dir: replace it with the file itself`;

describe('links inside the data dir are refused (issue #35.5)', () => {
  it.each(['config.json', 'logs/bridge.log', 'bridge.sqlite', 'bridge.sqlite-wal', 'bridge.sqlite-shm'])(
    '%s as a link: exits 2 with one line naming it; the target is untouched',
    async (name) => {
      const { dir, victim } = dataDirAndVictim();
      const link = path.join(dir, name);
      mkdirSync(path.dirname(link), { recursive: true, mode: 0o700 });
      symlinkSync(victim, link);
      const { code, lines } = await refusedStart(dir);
      expect(code).toBe(2);
      expect(lines).toEqual([linkLine(link)]);
      expectUntouched(victim);
    },
    30_000,
  );

  it('logs/ as a link to another folder: refused, nothing written there', async () => {
    const { dir } = dataDirAndVictim();
    const elsewhere = path.join(path.dirname(dir), 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, path.join(dir, 'logs'));
    const { code, lines } = await refusedStart(dir);
    expect(code).toBe(2);
    expect(lines).toEqual([linkLine(path.join(dir, 'logs'))]);
    expect(execFileSync('ls', ['-A', elsewhere], { encoding: 'utf8' })).toBe('');
  }, 30_000);

  it('config.json turned into a link while running: Settings refuses to write through it', async () => {
    // Valid JSON, so that following the link reads it and writes over it.
    const { dir, victim } = dataDirAndVictim('{}\n');
    const bridge = await startTestBridge({}, { dataDir: dir, areas: ['settings'] });
    cleanup.push(() => bridge.stop());
    const configPath = path.join(dir, 'config.json');
    writeFileSync(configPath, '{}\n', { mode: 0o600 });
    renameSync(configPath, `${configPath}.real`);
    symlinkSync(victim, configPath);
    const response = await bridge.call('PUT', '/api/settings', {
      body: { values: { COLLECT_INTERVAL_HOURS: '12' } },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expectUntouched(victim, '{}\n');
  });

  it('a data dir that is itself a link is used (resolved once) and the log says so', async () => {
    const root = scratch();
    const target = path.join(root, 'on-another-disk');
    mkdirSync(target, { mode: 0o700 });
    const link = path.join(root, 'data');
    symlinkSync(target, link);
    const bridge = await startTestBridge({}, { dataDir: link, logLevel: 'info', areas: ['health'] });
    cleanup.push(() => bridge.stop());
    expect(statSync(path.join(target, 'bridge.sqlite')).isFile()).toBe(true);
    const log = await eventually(() => {
      const text = readFileSync(path.join(target, 'logs', 'bridge.log'), 'utf8');
      return text.includes('is a link') ? text : '';
    });
    expect(log).toContain(link);
    expect(log).toContain(target);
  });
});

describe('a data dir other users could change is refused (issue #35.5)', () => {
  it.each(['777', '770', '702'])(
    'mode %s: exits 2 naming the dir and how to fix it',
    async (mode) => {
      const { dir } = dataDirAndVictim();
      chmodSync(dir, Number.parseInt(mode, 8));
      const { code, lines } = await refusedStart(dir);
      expect(code).toBe(2);
      expect(lines).toEqual([
        `studio-bridge: invalid configuration: BRIDGE_DATA_DIR: ${dir} cannot be used: other users can write in it (mode ${mode}); make it yours alone: chmod go-w ${dir}`,
      ]);
    },
    30_000,
  );

  /** A 0700 data dir in a folder of this mode. */
  function underSharedFolder(mode: number): { shared: string; dir: string } {
    const shared = path.join(scratch(), 'shared');
    mkdirSync(shared);
    chmodSync(shared, mode);
    const dir = path.join(shared, 'data');
    mkdirSync(dir, { mode: 0o700 });
    return { shared, dir };
  }

  it('a folder above it that others can write (without the sticky bit): refused', async () => {
    const { shared, dir } = underSharedFolder(0o777);
    const { code, lines } = await refusedStart(dir);
    expect(code).toBe(2);
    expect(lines).toEqual([
      `studio-bridge: invalid configuration: BRIDGE_DATA_DIR: ${dir} cannot be used: other users can write in ${shared} (mode 777), so they could replace it; use a data dir under folders only you (or root) can write, or chmod go-w ${shared}`,
    ]);
  }, 30_000);

  it('a folder above it that others can write with the sticky bit (like /tmp): allowed', async () => {
    const { dir } = underSharedFolder(0o1777);
    const outcome = await cliOutcome({ BRIDGE_DATA_DIR: dir, BRIDGE_SANDBOX: '0' });
    cleanup.push(outcome.stop);
    expect(outcome.code).toBeNull();
  }, 30_000);

  // Only root can give a folder to another user; as root, the bridge may use a folder root owns.
  it.runIf(process.getuid?.() === 0)(
    'owned by another non-root user (needs root to set up): exits 2 naming the owner and the fix',
    async () => {
      const { dir } = dataDirAndVictim();
      chownSync(dir, 65534, 65534);
      const { code, lines } = await refusedStart(dir);
      expect(code).toBe(2);
      expect(lines).toEqual([
        `studio-bridge: invalid configuration: BRIDGE_DATA_DIR: ${dir} cannot be used: it belongs to another user (uid 65534); run the bridge as that user, or make the folder yours: chown root ${dir}`,
      ]);
    },
    30_000,
  );
});
