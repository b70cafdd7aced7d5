import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfigFile } from '../../../main/config/config.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';
import { runCli } from '../../support/process.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * PUBLISH_ROUTES from the Settings API is inline JSON only: a path would make the bridge read
 * any file on the host and answer with what it found (issue #12.1). A path stays possible where
 * the operator edits (environment, config file), and no error ever quotes a file's content.
 */

const files = tempDir('settings-routes-files');
/** Stands in for /etc/shadow: text whose content must never come back. */
const secretText = path.join(files.path, 'shadow');
/** A JSON file whose key names must never come back. */
const secretJson = path.join(files.path, 'keys.json');
const missing = path.join(files.path, 'no-such-file.json');
const validRoutes = path.join(files.path, 'routes.json');
writeFileSync(secretText, 'root:$6$TOPSECRETHASH:19000:0:99999:7:::\n');
writeFileSync(secretJson, JSON.stringify({ internalKeyName: { hidden: 'HIDDENVALUE' } }));
writeFileSync(
  validRoutes,
  JSON.stringify({ Podcast: { livestream: '/podcast/live', upload: '/podcast/up' } }),
);

const table = { Videosite: { livestream: '/videosite/livestream', upload: '/videosite/upload' } };

let bridge: TestBridge;
let pathInFile: TestBridge;
const pathInFileDir = tempDir('settings-routes-path-in-file');
beforeAll(async () => {
  bridge = await startTestBridge({}, { areas: ['settings'] });
  writeConfigFile(path.join(pathInFileDir.path, 'config.json'), {
    values: { PUBLISH_ROUTES: validRoutes },
    secretOrigins: {},
  });
  pathInFile = await startTestBridge({}, { areas: ['settings'], dataDir: pathInFileDir.path });
});
afterAll(async () => {
  await bridge.close();
  await pathInFile.close();
  pathInFileDir.remove();
  files.remove();
});

const putRoutes = (target: TestBridge, value: string) =>
  target.call('PUT', '/api/settings', { body: { values: { PUBLISH_ROUTES: value } } });

describe('PUT /api/settings PUBLISH_ROUTES (issue #12.1)', () => {
  it('refuses a file path with 400 naming the key and the rule, without reading the file', async () => {
    const configFile = () => (existsSync(bridge.configPath) ? readFileSync(bridge.configPath, 'utf8') : null);
    const configBefore = configFile();
    const answers = await Promise.all(
      [secretText, secretJson, missing].map((file) => putRoutes(bridge, file)),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error).toMatch(/^body\.values\.PUBLISH_ROUTES: /);
      expect(answer.body.error).toContain('JSON');
      const text = JSON.stringify(answer.body);
      for (const leak of ['TOPSECRETHASH', 'root:', 'internalKeyName', 'HIDDENVALUE']) {
        expect(text).not.toContain(leak);
      }
    }
    // A readable file, a JSON file and a missing one answer exactly alike.
    expect(answers[1]!.body).toEqual(answers[0]!.body);
    expect(answers[2]!.body).toEqual(answers[0]!.body);
    expect(configFile()).toBe(configBefore);
  });

  it('accepts an inline JSON table and writes it to the config file', async () => {
    const answer = await putRoutes(bridge, JSON.stringify(table));
    expect(answer.status).toBe(200);
    const written = JSON.parse(readFileSync(bridge.configPath, 'utf8')) as Record<string, string>;
    expect(JSON.parse(written.PUBLISH_ROUTES!)).toEqual(table);
  });

  it('a path the operator set in the config file is read-only here, with where to change it', async () => {
    const settings = await pathInFile.call('GET', '/api/settings');
    const entry = settings.body.settings.find((s: { key: string }) => s.key === 'PUBLISH_ROUTES');
    expect(entry).toMatchObject({ value: validRoutes, source: 'file', editable: false });
    expect(entry.note).toContain(pathInFile.configPath);

    const replace = await putRoutes(pathInFile, JSON.stringify(table));
    expect(replace.status).toBe(400);
    expect(replace.body.error).toContain(pathInFile.configPath);
    const remove = await putRoutes(pathInFile, '');
    expect(remove.status).toBe(400);
    expect(JSON.parse(readFileSync(pathInFile.configPath, 'utf8'))).toMatchObject({
      PUBLISH_ROUTES: validRoutes,
    });
    // Other keys can still be saved beside it.
    const other = await pathInFile.call('PUT', '/api/settings', {
      body: { values: { COLLECT_INTERVAL_HOURS: '12' } },
    });
    expect(other.status).toBe(200);
  });

  it('an inline table and keys without a path are editable', async () => {
    const settings = await bridge.call('GET', '/api/settings');
    const byKey = Object.fromEntries(
      settings.body.settings.map((s: { key: string; editable: boolean }) => [s.key, s.editable]),
    );
    expect(byKey).toMatchObject({
      PUBLISH_ROUTES: true,
      COLLECT_INTERVAL_HOURS: true,
      BRIDGE_API_KEY: false,
    });
  });
});

describe('PUBLISH_ROUTES as a path in the environment (issue #12.1)', () => {
  it('a file that is not a route table: exit 2 naming the path, never its content', async () => {
    const runs = [secretText, secretJson, missing].map((file) =>
      runCli({ BRIDGE_DATA_DIR: tempPathFor(file), BRIDGE_SANDBOX: '0', PUBLISH_ROUTES: file }),
    );
    for (const [index, file] of [secretText, secretJson, missing].entries()) {
      const cli = runs[index]!;
      expect((await cli.exited).code).toBe(2);
      const { stderr } = cli.output();
      expect(stderr.trim()).toBe(
        `studio-bridge: invalid configuration: PUBLISH_ROUTES: ${file} is not a valid route table`,
      );
    }
  }, 30_000);
});

function tempPathFor(file: string): string {
  return path.join(files.path, `data-${path.basename(file)}`);
}
