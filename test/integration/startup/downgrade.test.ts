import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { areaMigrations } from '../../../main/areas/migrations.js';
import { migrations as shippedMigrations } from '../../../main/kernel/migrations/index.js';
import { readVersion } from '../../../main/kernel/version.js';
import { cliOutcome } from '../../support/process.js';
import { tempDir } from '../../support/temp-dir.js';

/*
 * Issue #35.2: an older release started on a data dir a newer one had migrated, ignored the newer
 * "waiting for the operator" hold, deleted a published post at the provider and posted it again.
 * Right after taking the data-dir lock, before the sandbox writes its world and before any peer
 * is called, a bridge refuses a database holding a migration number it does not know: exit 2,
 * one line. Before migrating a non-empty database it backs it up, and the refusal names the backup.
 */

const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const release = readVersion();
const everyMigration = [...shippedMigrations, ...areaMigrations];
const highestKnown = Math.max(...everyMigration.map((m) => m.version));

function dataDir(): string {
  const dir = tempDir('bridge-downgrade');
  cleanup.push(dir.remove);
  return dir.path;
}

/**
 * A database as a release knowing migrations up to `upTo` left it (999: every migration this one
 * knows, and one from the future), written the way that release's runner wrote it.
 */
function databaseAt(dir: string, upTo: number): void {
  const db = new Database(path.join(dir, 'bridge.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of [...everyMigration].sort((a, b) => a.version - b.version)) {
    if (migration.version > upTo) break;
    db.exec(migration.sql);
    record.run(migration.version, migration.name, new Date().toISOString());
  }
  if (upTo > highestKnown) record.run(upTo, 'from-the-future', new Date().toISOString());
  db.close();
}

/** One HTTP server standing in for every peer: it counts what reaches it. */
async function countingPeer(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

describe('a database from a newer release (issue #35.2)', () => {
  it('in the sandbox: exits 2 with one line naming both migrations, and the sandbox writes no world', async () => {
    const dir = dataDir();
    databaseAt(dir, 999);
    const outcome = await cliOutcome({ BRIDGE_DATA_DIR: dir, BRIDGE_SANDBOX: '1' });
    cleanup.push(outcome.stop);
    expect(outcome.code).toBe(2);
    const lines = outcome.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^studio-bridge: /);
    expect(lines[0]).toContain(path.join(dir, 'bridge.sqlite'));
    expect(lines[0]).toContain('migration 999');
    expect(lines[0]).toContain(`this release (${release}) knows migrations up to ${highestKnown}`);
    expect(outcome.stdout).toBe('');
    expect(existsSync(path.join(dir, 'sandbox-world.json'))).toBe(false);
    // Nothing migrated or recorded: the newer release finds its database as it left it.
    const db = new Database(path.join(dir, 'bridge.sqlite'), { readonly: true });
    cleanup.push(() => void db.close());
    expect(db.prepare('SELECT count(*) FROM bridge_starts').pluck().get()).toBe(0);
    expect(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(999);
    expect(existsSync(path.join(dir, 'bridge.lock'))).toBe(false);
  }, 30_000);

  it('with real peers configured: exits 2 before calling any of them', async () => {
    const dir = dataDir();
    databaseAt(dir, 999);
    const peer = await countingPeer();
    const outcome = await cliOutcome({
      BRIDGE_DATA_DIR: dir,
      BRIDGE_SANDBOX: '0',
      CRM_URL: peer.url,
      CRM_API_KEY: 'crm-key',
      POSTSVC_URL: peer.url,
      POSTSVC_API_KEY: 'postsvc-key',
      GATEWAY_URL: peer.url,
      AUTOMATION_URL: peer.url,
      CRM_CATCHUP_MINUTES: '1',
    });
    cleanup.push(outcome.stop);
    expect(outcome.code).toBe(2);
    expect(peer.requests()).toBe(0);
  }, 30_000);

  it('backs up a database before migrating it (0600, the migrations it held), and the refusal names the backup', async () => {
    const dir = dataDir();
    databaseAt(dir, 13);
    const first = await cliOutcome({ BRIDGE_DATA_DIR: dir, BRIDGE_SANDBOX: '0' });
    cleanup.push(first.stop);
    expect(first.code).toBeNull(); // it started
    await first.stop();

    const backupsDir = path.join(dir, 'backups');
    const backups = readdirSync(backupsDir);
    expect(backups).toHaveLength(1);
    const [name] = backups as [string];
    expect(name).toMatch(new RegExp(`^bridge-${release.replace(/\./g, '\\.')}-\\d{8}T\\d{6}Z\\.sqlite$`));
    const backup = path.join(backupsDir, name);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(statSync(backupsDir).mode & 0o777).toBe(0o700);
    const copy = new Database(backup, { readonly: true, fileMustExist: true });
    const held = copy.prepare('SELECT max(version) FROM schema_migrations').pluck().get();
    copy.close();
    expect(held).toBe(13);

    // A start with nothing to migrate makes no backup.
    const again = await cliOutcome({ BRIDGE_DATA_DIR: dir, BRIDGE_SANDBOX: '0' });
    cleanup.push(again.stop);
    expect(again.code).toBeNull();
    await again.stop();
    expect(readdirSync(backupsDir)).toEqual([name]);

    // A newer release migrated it further: this one refuses and says what to do.
    const db = new Database(path.join(dir, 'bridge.sqlite'));
    db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from-the-future', ?)",
    ).run(new Date().toISOString());
    db.prepare("INSERT INTO bridge_starts (release, started_at, migration) VALUES ('9.9.9', ?, 999)").run(
      new Date().toISOString(),
    );
    db.close();
    const refused = await cliOutcome({ BRIDGE_DATA_DIR: dir, BRIDGE_SANDBOX: '0' });
    cleanup.push(refused.stop);
    expect(refused.code).toBe(2);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('last started by release 9.9.9');
    expect(lines[0]).toContain(backup);
    expect(lines[0]).toContain('migrations up to 13');
  }, 60_000);
});
