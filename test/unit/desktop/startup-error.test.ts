import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../main/config/config.js';
import { describeStartupError } from '../../../main/desktop/startup-error.js';
import { DataDirInUseError } from '../../../main/kernel/data-dir-lock.js';
import { DatabaseTooNewError } from '../../../main/kernel/db.js';
import { DataDirEntryError } from '../../../main/kernel/private-files.js';

describe('describeStartupError', () => {
  it('lists the bad keys of an invalid configuration and exits 2, as the CLI does', () => {
    const failure = describeStartupError(
      new ConfigError(['BRIDGE_PORT: must be 1-65535', 'CRM_URL: not a URL']),
    );
    expect(failure).toEqual({
      title: 'Studio Bridge: invalid configuration',
      detail: 'BRIDGE_PORT: must be 1-65535\nCRM_URL: not a URL',
      exitCode: 2,
    });
  });

  it('names the way out of a port in use', () => {
    const error = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:4100'), {
      code: 'EADDRINUSE',
    });
    const failure = describeStartupError(error);
    expect(failure.exitCode).toBe(1);
    expect(failure.detail).toContain('BRIDGE_PORT');
  });

  it('names the bridge holding the data dir and how to clear a stale lock', () => {
    const failure = describeStartupError(
      new DataDirInUseError('/data', 1234, 'http://127.0.0.1:4100', '/data/bridge.lock'),
    );
    expect(failure.title).toBe('Studio Bridge: the data dir is in use');
    expect(failure.exitCode).toBe(1);
    expect(failure.detail).toContain(
      'The data dir /data is in use by another bridge (pid 1234, http://127.0.0.1:4100)',
    );
    expect(failure.detail).toContain('delete /data/bridge.lock');
  });

  it('a database from a newer release: its one line, exit 2 as the CLI (issue #35.2)', () => {
    const line =
      'the database /data/bridge.sqlite holds migration 30 but this release (0.1.0) knows migrations up to 24. Run the newer release that migrated it; there is no backup this release can open in /data/backups';
    const failure = describeStartupError(new DatabaseTooNewError(line));
    expect(failure).toEqual({
      title: 'Studio Bridge: the database is from a newer release',
      detail: line,
      exitCode: 2,
    });
  });

  it('a link or a foreign file in the data dir: its one line, exit 2 as the CLI (issue #35.5)', () => {
    const line =
      '/data/config.json is a symbolic link; the bridge opens no link in its data dir: replace it with the file itself';
    const failure = describeStartupError(new DataDirEntryError('/data/config.json', line));
    expect(failure).toEqual({
      title: 'Studio Bridge: the data dir is not safe to use',
      detail: line,
      exitCode: 2,
    });
  });

  it('passes other errors through with exit code 1', () => {
    expect(describeStartupError(new Error('disk full'))).toEqual({
      title: 'Studio Bridge could not start',
      detail: 'disk full',
      exitCode: 1,
    });
    expect(describeStartupError('boom').detail).toBe('boom');
  });
});
