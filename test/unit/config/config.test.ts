import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, maskSecret, writeConfigFile } from '../../../main/config/config.js';
import { defaultPublishRoutes } from '../../../main/config/publish-routes.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

const dirs: TempDir[] = [];
const dataDir = () => {
  const dir = tempDir('config');
  dirs.push(dir);
  return dir.path;
};
afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()));

/** Makes `file` unwritable for this process (root: the immutable flag); returns the undo, or null when it cannot. */
function unwritable(file: string): (() => void) | null {
  if (process.getuid?.() !== 0) {
    chmodSync(file, 0o400);
    return () => chmodSync(file, 0o600);
  }
  if (spawnSync('chattr', ['+i', file]).status !== 0) return null;
  return () => void spawnSync('chattr', ['-i', file]);
}

const errorsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ env: { BRIDGE_DATA_DIR: dataDir(), ...env } });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
};

describe('config (DESIGN §3)', () => {
  it('defaults: loopback 4100, sandbox without CRM_URL, free plan, 6 h, built-in routes', () => {
    const config = loadConfig({ env: { BRIDGE_DATA_DIR: dataDir() } });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 4100,
      sandbox: true,
      collectIntervalHours: 6,
      crm: null,
    });
    expect(config.publishRoutes).toEqual(defaultPublishRoutes);
  });

  it('generates an API key once, stores it 0600, and reuses it', () => {
    const dir = dataDir();
    const first = loadConfig({ env: { BRIDGE_DATA_DIR: dir } });
    expect(first.apiKey.length).toBeGreaterThanOrEqual(32);
    expect(first.sources.BRIDGE_API_KEY).toBe('generated');
    const file = path.join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = loadConfig({ env: { BRIDGE_DATA_DIR: dir } });
    expect(second.apiKey).toBe(first.apiKey);
    expect(second.sources.BRIDGE_API_KEY).toBe('file');
  });

  it('lets env win over the config file', () => {
    const dir = dataDir();
    writeConfigFile(path.join(dir, 'config.json'), {
      values: { BRIDGE_PORT: '5000', POSTSVC_PLAN: 'premium' },
      secretOrigins: {},
    });
    const config = loadConfig({ env: { BRIDGE_DATA_DIR: dir, BRIDGE_PORT: '6000' } });
    expect(config.port).toBe(6000);
    expect(config.sources.BRIDGE_PORT).toBe('env');
    expect(config.postsvc).toBeNull();
    expect(config.sources.POSTSVC_PLAN).toBe('file');
  });

  it('reports every bad key, one line each', () => {
    const issues = errorsOf({
      BRIDGE_PORT: '70000',
      CRM_URL: 'ftp://crm',
      POSTSVC_PLAN: 'gold',
      COLLECT_INTERVAL_HOURS: '0',
      AUTOMATION_AUTH_HEADER: 'no colon',
      BRIDGE_CORS_ORIGINS: 'https://ok.example,not-an-origin',
    });
    const keys = issues.map((line) => line.split(/[.:]/)[0]);
    expect(keys).toEqual(
      expect.arrayContaining([
        'BRIDGE_PORT',
        'CRM_URL',
        'POSTSVC_PLAN',
        'COLLECT_INTERVAL_HOURS',
        'AUTOMATION_AUTH_HEADER',
        'BRIDGE_CORS_ORIGINS',
      ]),
    );
  });

  it('reads BRIDGE_TRUST_PROXY as a whole number of hops, 0 by default (issue #25.5)', () => {
    expect(loadConfig({ env: { BRIDGE_DATA_DIR: dataDir() } }).trustProxyHops).toBe(0);
    expect(loadConfig({ env: { BRIDGE_DATA_DIR: dataDir(), BRIDGE_TRUST_PROXY: '1' } }).trustProxyHops).toBe(
      1,
    );
    expect(errorsOf({ BRIDGE_TRUST_PROXY: 'yes' })).toEqual([
      'BRIDGE_TRUST_PROXY: must be a number of proxy hops',
    ]);
    expect(errorsOf({ BRIDGE_TRUST_PROXY: '-1' })).toEqual([
      'BRIDGE_TRUST_PROXY: must be 0 (no proxy) or more',
    ]);
    expect(errorsOf({ BRIDGE_TRUST_PROXY: '1.5' })).toEqual([
      'BRIDGE_TRUST_PROXY: must be a whole number of proxy hops',
    ]);
  });

  it('reads FFMPEG_PATH and FFPROBE_PATH as programs it can run, none by default (DESIGN §6.10)', () => {
    const dir = dataDir();
    const program = path.join(dir, 'ffmpeg');
    writeFileSync(program, '#!/bin/sh\n');
    chmodSync(program, 0o755);
    expect(loadConfig({ env: { BRIDGE_DATA_DIR: dataDir() } })).toMatchObject({
      ffmpegPath: null,
      ffprobePath: null,
    });
    expect(
      loadConfig({ env: { BRIDGE_DATA_DIR: dataDir(), FFMPEG_PATH: program, FFPROBE_PATH: program } }),
    ).toMatchObject({ ffmpegPath: program, ffprobePath: program });
    const text = path.join(dir, 'notes.txt');
    writeFileSync(text, 'no program');
    chmodSync(text, 0o644);
    expect(errorsOf({ FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: path.join(dir, 'missing', 'ffprobe') })).toEqual([
      'FFMPEG_PATH: must be the full path of the program (ffmpeg is not one)',
      `FFPROBE_PATH: ${path.join(dir, 'missing', 'ffprobe')} is not there`,
    ]);
    expect(errorsOf({ FFMPEG_PATH: text })).toEqual([
      `FFMPEG_PATH: ${text} is not a program the bridge may run`,
    ]);
    expect(errorsOf({ FFMPEG_PATH: dir })).toEqual([`FFMPEG_PATH: ${dir} is a folder, not the program`]);
  });

  it('needs credentials with CRM_URL and a key with POSTSVC_URL', () => {
    expect(errorsOf({ CRM_URL: 'https://crm.example' })).toEqual([
      'CRM_API_KEY: required with CRM_URL (or CRM_USERNAME and CRM_PASSWORD)',
    ]);
    expect(errorsOf({ POSTSVC_URL: 'https://p.example' })).toEqual([
      'POSTSVC_API_KEY: required with POSTSVC_URL',
    ]);
  });

  it('validates PUBLISH_ROUTES (inline JSON or a file): paths, dependencies', () => {
    const dir = dataDir();
    const file = path.join(dir, 'routes.json');
    writeConfigFile(path.join(dir, 'x.json'), { values: {}, secretOrigins: {} });
    expect(
      errorsOf({ PUBLISH_ROUTES: '{"A":{"livestream":"/a","upload":"/a/up","dependsOn":"B"}}' }),
    ).toEqual(['PUBLISH_ROUTES.A.dependsOn: "B" has no route']);
    expect(errorsOf({ PUBLISH_ROUTES: '{"A":{"livestream":"a"}}' }).length).toBe(2);
    // A file is named, never quoted (issue #12.1).
    expect(errorsOf({ PUBLISH_ROUTES: file })).toEqual([
      `PUBLISH_ROUTES: ${file} is not a valid route table`,
    ]);
    const routes =
      '{"Main":{"livestream":"/m/live","upload":"/m/up"},"Echo":{"livestream":"/e/live","upload":"/e/up","dependsOn":"Main"}}';
    const config = loadConfig({ env: { BRIDGE_DATA_DIR: dir, PUBLISH_ROUTES: routes } });
    expect(config.publishRoutes.Echo?.dependsOn).toBe('Main');
    expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).toContain('BRIDGE_API_KEY');
  });

  it('BRIDGE_API_KEY holds visible ASCII only, one line per bad key, never the key (issue #35.7)', () => {
    const rule =
      'BRIDGE_API_KEY: may hold only visible ASCII characters (letters, digits and the punctuation ! to ~), no spaces: it is sent in an HTTP header';
    for (const key of [
      'schlüssel-der-brücke-2024',
      'key with spaces 0123456',
      'tab\there-0123456789',
      'ключ',
    ])
      expect(errorsOf({ BRIDGE_API_KEY: key })).toEqual([rule]);
    expect(errorsOf({ BRIDGE_API_KEY: 'short' })).toEqual(['BRIDGE_API_KEY: must be at least 16 characters']);
    // Punctuation a generated or hand-made key may hold: all of it travels in a header as it is.
    expect(errorsOf({ BRIDGE_API_KEY: 'Ab0!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~' })).toEqual([]);
  });

  it("an earlier release's secrets in a config.json that cannot be written: bound for this run, said in the notes", () => {
    const dir = dataDir();
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ CRM_URL: 'https://crm.example', CRM_API_KEY: 'crm-key' }));
    const writable = unwritable(file);
    if (writable === null) return; // neither chattr (as root) nor a mode keeps this user from writing
    try {
      const config = loadConfig({
        env: { BRIDGE_DATA_DIR: dir, BRIDGE_API_KEY: 'k'.repeat(16), CRM_URL: 'https://elsewhere.example' },
      });
      expect(config.refusedKeys).toEqual({ crm: 'https://crm.example' });
      expect(config.crm).toEqual({ url: 'https://elsewhere.example' });
      expect(config.loadNotes).toEqual([
        'config.json from an earlier release: its secrets are bound to the address saved beside them (CRM_API_KEY for https://crm.example); each is sent only there from now on',
        expect.stringMatching(
          /config\.json could not be written \(.+\): the secrets are bound for this run only/,
        ),
      ]);
    } finally {
      writable();
    }
  });

  it('parses the n8n auth header and CORS origins', () => {
    const config = loadConfig({
      env: {
        BRIDGE_DATA_DIR: dataDir(),
        AUTOMATION_URL: 'http://n8n.local:5678/',
        AUTOMATION_AUTH_HEADER: 'X-N8N-Key: abc: def',
        BRIDGE_CORS_ORIGINS: 'https://crm.example/, http://10.0.0.5:8080',
      },
    });
    expect(config.automation).toEqual({
      url: 'http://n8n.local:5678',
      authHeader: { name: 'X-N8N-Key', value: 'abc: def' },
    });
    expect(config.corsOrigins).toEqual(['https://crm.example', 'http://10.0.0.5:8080']);
  });

  it('masks secrets showing only the last four characters, and none of a value under 16 characters', () => {
    expect(maskSecret('abcdefgh12345678')).toBe('••••5678');
    expect(maskSecret('abcdef123456')).toBe('••••••••');
  });
});
