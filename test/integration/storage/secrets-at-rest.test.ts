import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxGateway,
  type SandboxCrm,
  type SandboxGateway,
} from '../../../main/sandbox/index.js';
import { callSignedWebhook, eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/*
 * Issue #12.6, DESIGN §7: stream keys and other secrets never sit in plain text in the
 * database (job payloads, delivery logs, item logs, activity); the publish ledger keeps a
 * stream key only while a dependent still waits to publish with it. Every file the bridge
 * creates in the data dir is 0600, whoever created the dir; a dir it creates is 0700.
 */

/** Every row of every table of the bridge's database, as text. */
function tablesContaining(dataDir: string, secret: string): string[] {
  const db = new Database(path.join(dataDir, 'bridge.sqlite'), { readonly: true });
  try {
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((t) => t.name);
    return tables.filter((table) =>
      db
        .prepare(`SELECT * FROM "${table}"`)
        .all()
        .some((row) => JSON.stringify(row).includes(secret)),
    );
  } finally {
    db.close();
  }
}

function ledgerResult(dataDir: string, recordId: string): string | null {
  const db = new Database(path.join(dataDir, 'bridge.sqlite'), { readonly: true });
  try {
    const row = db
      .prepare<[string], { result: string | null }>('SELECT result FROM publish_ledger WHERE record_id = ?')
      .get(recordId);
    return row?.result ?? null;
  } finally {
    db.close();
  }
}

describe('secrets in the database', () => {
  const SECRET = 'whsec-secrets-at-rest';
  let crm: SandboxCrm;
  let gateway: SandboxGateway;
  let bridge: TestBridge;

  beforeAll(async () => {
    crm = await startSandboxCrm();
    gateway = await startSandboxGateway();
    bridge = await startTestBridge({
      CRM_URL: crm.url,
      CRM_API_KEY: crm.apiKey,
      CRM_WEBHOOK_SECRETS: SECRET,
      GATEWAY_URL: gateway.url,
      GATEWAY_API_KEY: gateway.apiKey,
    });
    crm.setWebhookTarget({ baseUrl: bridge.url, secret: SECRET, deliveryDelayMs: 20 });
  });
  afterAll(async () => {
    crm?.clearWebhookTarget();
    await bridge?.close();
    await gateway?.stop();
    await crm?.stop();
  });

  it('a livestream with a dependent: the key is kept while the dependent waits, then is nowhere in the database', async () => {
    const cp = crm.create('ContentProduction', { name: 'Live Q&A', contentType: 'Episode' }).id;
    const livestream = {
      contentProductionId: cp,
      publishType: 'Livestream',
      status: 'Queued',
      title: 'Live',
    };
    const dependent = crm.create('PlatformPublish', { ...livestream, platform: 'Streamhost' });
    await eventually(async () => {
      const panel = await bridge.call('GET', `/api/publishing?contentProductionId=${cp}`);
      return panel.body.data[0]?.records[0]?.state === 'waiting';
    });
    // The dependent's first try is turned away: it still waits for its publish when the primary is done.
    gateway.faults.injectFault({
      method: 'POST',
      pathPrefix: '/streamhost/livestream',
      status: 503,
      times: 1,
    });
    const primary = crm.create('PlatformPublish', { ...livestream, platform: 'Videosite' });

    // Turned away (the gateway records only what it accepted): the dependent retries after a backoff.
    await eventually(async () => {
      const retries = (await bridge.call('GET', '/api/activity?type=publish.retry')).body.data;
      return retries.some((e: { data: { id: string } }) => e.data.id === dependent.id);
    });
    const { streamKey } = gateway.publishes().find((p) => p.body.id === primary.id)!.response as {
      streamKey: string;
    };
    expect(streamKey.length).toBeGreaterThan(8);
    // While the dependent waits, the primary's ledger entry still holds the key.
    expect(crm.get('PlatformPublish', dependent.id)!.status).toBe('Queued');
    expect(ledgerResult(bridge.dataDir, primary.id)).toContain(streamKey);

    await eventually(() => crm.get('PlatformPublish', dependent.id)!.status === 'Published', 15_000);
    const sent = gateway.publishes().filter((p) => p.body.id === dependent.id);
    expect(sent.map((p) => p.status)).toEqual([200]);
    expect(sent[0]!.body.streamKey).toBe(streamKey);
    // The CRM keeps its records' keys (its business); its echoes of the write-backs carried them to the bridge.
    expect(crm.get('PlatformPublish', primary.id)!.streamKey).toBe(streamKey);
    await webhooksQuiet(crm);
    await jobsIdle(bridge.url, 'webhook.item');
    await jobsIdle(bridge.url, 'publishing.publish');
    expect(crm.deliveries().some((d) => d.event === 'platform-updated' && d.body.includes(streamKey))).toBe(
      true,
    );

    expect(tablesContaining(bridge.dataDir, streamKey)).toEqual([]);
    // What the ledger still needs to restore a record is there.
    expect(JSON.parse(ledgerResult(bridge.dataDir, primary.id)!)).toMatchObject({
      platformUrl: expect.any(String),
      streamUrl: expect.any(String),
    });
  }, 40_000);

  it('secret attributes in every shape are redacted in the delivery log and in queued items', async () => {
    const secrets = {
      streamKey: 'sk-camel-0123456789',
      stream_key: 'sk-snake-0123456789',
      'stream-key': 'sk-kebab-0123456789',
      password: 'pw-0123456789',
      apiKey: 'ak-camel-0123456789',
      api_key: 'ak-snake-0123456789',
      X_API_KEY: 'ak-upper-0123456789',
      clientSecret: 'cs-0123456789',
      accessToken: 'at-0123456789',
    };
    const sourceKey = 'src-key-0123456789';
    const streamSource = { url: 'rtmp://ingest.example/live', key: sourceKey };
    const content = crm.create('ContentProduction', { name: 'Shapes', stage: 'Editing' });
    const body = [
      {
        id: content.id,
        stage: 'Editing',
        ...secrets,
        streamSource,
        nested: { password: 'pw-nested-0123456789' },
      },
    ];
    // A name written with a JSON escape is still the same attribute.
    const escapedName = `[{"id":"${content.id}","stage":"Editing","stream\\u004bey":"sk-escaped-0123456789"}]`;
    const tested = await bridge.call('POST', '/webhooks/test', {
      body: { ...secrets, streamSource, marker: 'kept-in-the-log' },
    });
    expect(tested.status).toBe(200);
    for (const raw of [JSON.stringify(body), escapedName]) {
      const response = await callSignedWebhook(bridge.url, 'content-updated', raw, {
        webhookId: 'wh-shapes',
        secret: SECRET,
      });
      expect(response.status).toBe(200);
    }

    const all = [...Object.values(secrets), sourceKey, 'pw-nested-0123456789', 'sk-escaped-0123456789'];
    for (const value of all) expect([value, tablesContaining(bridge.dataDir, value)]).toEqual([value, []]);
    expect(tablesContaining(bridge.dataDir, 'kept-in-the-log')).toEqual(['webhook_deliveries']);
    expect(tablesContaining(bridge.dataDir, 'rtmp://ingest.example/live')).toContain('webhook_deliveries');
  });
});

describe('file modes in the data dir', () => {
  const dirs: TempDir[] = [];
  const bridges: TestBridge[] = [];
  afterEach(async () => {
    for (const bridge of bridges.splice(0)) await bridge.stop();
    for (const dir of dirs.splice(0)) dir.remove();
  });

  /** Every file and folder under `dir`, with its permission bits. */
  function modes(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (at: string) => {
      for (const name of readdirSync(at)) {
        const full = path.join(at, name);
        const stat = statSync(full);
        out[path.relative(dir, full)] = (stat.mode & 0o777).toString(8);
        if (stat.isDirectory()) walk(full);
      }
    };
    walk(dir);
    return out;
  }

  const start = async (dataDir: string) => {
    // No key in the env: one is generated and written to config.json. The log goes to logs/.
    const bridge = await startTestBridge({ BRIDGE_API_KEY: '' }, { dataDir, logLevel: 'info' });
    bridges.push(bridge);
    await eventually(() => existsSync(path.join(dataDir, 'logs', 'bridge.log')));
    return bridge;
  };
  const expected = {
    'bridge.lock': '600',
    'bridge.sqlite': '600',
    'bridge.sqlite-wal': '600',
    'bridge.sqlite-shm': '600',
    'config.json': '600',
    logs: '700',
    'logs/bridge.log': '600',
  };

  it('a data dir that already existed as 0755: every file the bridge creates in it is 0600, the dir stays', async () => {
    const parent = tempDir('bridge-modes');
    dirs.push(parent);
    chmodSync(parent.path, 0o755);
    await start(parent.path);
    expect(modes(parent.path)).toEqual(expected);
    expect((statSync(parent.path).mode & 0o777).toString(8)).toBe('755');
  });

  it('a data dir the bridge creates is 0700', async () => {
    const parent = tempDir('bridge-modes');
    dirs.push(parent);
    const dataDir = path.join(parent.path, 'nested', 'studio-bridge');
    mkdirSync(path.dirname(dataDir));
    await start(dataDir);
    expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    expect(modes(dataDir)).toEqual(expected);
  });

  it('files an earlier version left readable to others are made 0600 at the next start', async () => {
    const parent = tempDir('bridge-modes');
    dirs.push(parent);
    await start(parent.path);
    await bridges.pop()!.stop();
    for (const file of ['bridge.sqlite', 'logs/bridge.log']) chmodSync(path.join(parent.path, file), 0o644);
    await start(parent.path);
    expect(modes(parent.path)).toMatchObject({
      'bridge.sqlite': '600',
      'bridge.sqlite-wal': '600',
      'logs/bridge.log': '600',
    });
  });
});

/** Which of `needles` the raw bytes of the file hold (a missing file holds none). */
function foundIn(file: string, needles: readonly string[]): string[] {
  if (!existsSync(file)) return [];
  const bytes = readFileSync(file);
  return needles.filter((needle) => bytes.includes(needle));
}

describe('secrets by name and by value, in the database, its WAL and the log (issue #24.3)', () => {
  const SECRET = 'whsec-by-value';
  let crm: SandboxCrm;
  let gateway: SandboxGateway;
  let bridge: TestBridge;

  beforeAll(async () => {
    crm = await startSandboxCrm();
    gateway = await startSandboxGateway();
    bridge = await startTestBridge(
      {
        CRM_URL: crm.url,
        CRM_API_KEY: crm.apiKey,
        CRM_WEBHOOK_SECRETS: SECRET,
        GATEWAY_URL: gateway.url,
        GATEWAY_API_KEY: gateway.apiKey,
      },
      { logLevel: 'debug' },
    );
    crm.setWebhookTarget({ baseUrl: bridge.url, secret: SECRET, deliveryDelayMs: 20 });
  });
  afterAll(async () => {
    crm?.clearWebhookTarget();
    await bridge?.close();
    await gateway?.stop();
    await crm?.stop();
  });

  it('after a publish with a dependent, no marker secret is in any file; the dependent got its stream', async () => {
    const markers = {
      accessKey: 'MARK-accesskey-0123',
      key: 'MARK-key-0123',
      authorization: 'MARK-authorization-0123',
      pwd: 'MARK-pwd-0123',
      pass: 'MARK-pass-0123',
      rtmpKey: 'MARK-rtmpkey-0123',
      private_key: 'MARK-privatekey-0123',
      Credentials: 'MARK-credentials-0123',
    };
    const inValues = {
      note: 'go live at rtmp://ingest.example.com/live/MARK-note-rtmp-0123 tonight',
      ingestUrl: 'rtmps://ingest.example.com:443/app/MARK-url-rtmps-0123',
      settings: JSON.stringify({ streamKey: 'MARK-json-string-0123', label: 'kept' }),
    };
    const kept = { idempotencyKey: 'KEEP-idempotency-0123', dedupeKey: 'KEEP-dedupe-0123' };
    const content = crm.create('ContentProduction', { name: 'Markers', stage: 'Editing' });
    const item = { id: content.id, stage: 'Editing', ...markers, ...inValues, ...kept };
    // As EspoCRM writes JSON (PHP escapes every slash), and as a script writes it.
    const php = JSON.stringify([item]).replaceAll('/', '\\/');
    expect(
      (await callSignedWebhook(bridge.url, 'content-updated', php, { webhookId: 'wh-m', secret: SECRET }))
        .status,
    ).toBe(200);
    expect(
      (await bridge.call('POST', '/webhooks/test', { body: { ...markers, ...inValues, ...kept } })).status,
    ).toBe(200);

    // A livestream and its dependent: the dependent needs the primary's stream key.
    const cp = crm.create('ContentProduction', { name: 'Live by value', contentType: 'Episode' }).id;
    const livestream = {
      contentProductionId: cp,
      publishType: 'Livestream',
      status: 'Queued',
      title: 'Live',
    };
    const dependent = crm.create('PlatformPublish', { ...livestream, platform: 'Streamhost' });
    await eventually(async () => {
      const panel = await bridge.call('GET', `/api/publishing?contentProductionId=${cp}`);
      return panel.body.data[0]?.records[0]?.state === 'waiting';
    });
    const primary = crm.create('PlatformPublish', { ...livestream, platform: 'Videosite' });
    await eventually(() => crm.get('PlatformPublish', dependent.id)!.status === 'Published', 15_000);
    const { streamKey } = gateway.publishes().find((p) => p.body.id === primary.id)!.response as {
      streamKey: string;
    };
    const sent = gateway.publishes().filter((p) => p.body.id === dependent.id);
    expect(sent.map((p) => p.status)).toEqual([200]);
    expect(sent[0]!.body.streamKey).toBe(streamKey);
    await webhooksQuiet(crm);
    await jobsIdle(bridge.url, 'webhook.item');
    await jobsIdle(bridge.url, 'publishing.publish');

    const secrets = [...Object.values(markers), ...Object.values(inValues).map(markerOf), streamKey];
    const files = ['bridge.sqlite', 'bridge.sqlite-wal', 'logs/bridge.log'].map((f) =>
      path.join(bridge.dataDir, f),
    );
    const found = () =>
      files.flatMap((file) => foundIn(file, secrets).map((s) => `${path.basename(file)}: ${s}`));
    // The WAL is emptied by a checkpoint after the key is redacted (retried until it succeeds).
    await eventually(() => found().length === 0, 10_000).catch(() => undefined);
    console.log(`secrets found by the grep: ${found().length}`);
    expect(found()).toEqual([]);
    // What reconciling needs is kept; so is the text around a redacted value.
    expect(tablesContaining(bridge.dataDir, 'KEEP-idempotency-0123')).toContain('webhook_deliveries');
    expect(tablesContaining(bridge.dataDir, 'KEEP-dedupe-0123')).toContain('webhook_deliveries');
    expect(tablesContaining(bridge.dataDir, 'rtmp://ingest.example.com/live/')).toContain(
      'webhook_deliveries',
    );
  }, 60_000);
});

/** The MARK-... part of a value. */
function markerOf(value: string): string {
  return /MARK-[a-z-]+-0123/.exec(value)![0];
}
