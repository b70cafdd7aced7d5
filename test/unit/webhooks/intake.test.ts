import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { areaMigrations } from '../../../main/areas/migrations.js';
import { createRecordMarks } from '../../../main/areas/webhooks/record-marks.js';
import { createWebhooksRepo } from '../../../main/areas/webhooks/repo.js';
import { ActivityLog } from '../../../main/kernel/activity/activity-log.js';
import { createActivityRepo } from '../../../main/kernel/activity/repo.js';
import { groupCommitOf } from '../../../main/kernel/commit-group.js';
import { openDatabase } from '../../../main/kernel/db.js';
import { JobQueue } from '../../../main/kernel/jobs/queue.js';
import { createJobsRepo } from '../../../main/kernel/jobs/repo.js';
import { tempDir } from '../../support/temp-dir.js';
import { canonicalJson, itemHash, webhookItemKey } from '../../../main/areas/webhooks/idempotency.js';
import { mayHoldSecret } from '../../../main/areas/webhooks/redact.js';
import { respond, WebhookIntake } from '../../../main/areas/webhooks/intake.js';

describe('webhook idempotency keys', () => {
  it('ignores key order and differs when the item differs', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"e":1,"f":2}]},"b":1}',
    );
    const a = webhookItemKey('SocialPost', 'social-created', { id: 'x', status: 'Scheduled', content: 'hi' });
    const b = webhookItemKey('SocialPost', 'social-created', { content: 'hi', id: 'x', status: 'Scheduled' });
    const c = webhookItemKey('SocialPost', 'social-created', { id: 'x', status: 'Draft', content: 'hi' });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a.startsWith('SocialPost:x:social-created:')).toBe(true);
  });
});

/** canonicalJson as first written (entries filtered, sorted, mapped, joined): the text stored hashes come from. */
function plainCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(plainCanonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${plainCanonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A random JSON value, with names that sort differently by code unit than by locale. */
function randomJson(random: () => number, depth = 0): unknown {
  const names = ['id', 'ID', 'a', 'B', 'é', 'z', '_x', 'a b', 'Z9', '\u{1F3AC}', 'status', ''];
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const kind = depth > 3 ? random() * 4 : random() * 6;
  if (kind < 1) return null;
  if (kind < 2) return random() < 0.5;
  if (kind < 3) return Math.round(random() * 1e6) / 100;
  if (kind < 4) return pick(['', 'Draft', 'https://studio.com', 'Café 🎬', 'line\nbreak', '"quoted"']);
  if (kind < 5) return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 6); i > 0; i--) object[pick(names)] = randomJson(random, depth + 1);
  if (random() < 0.2) object.skipped = undefined;
  return object;
}

describe('webhook item hashes stay what they were', () => {
  it('the same text as the plain canonical form, on 500 random values', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 500; i++) {
      const value = randomJson(random);
      expect(canonicalJson(value)).toBe(plainCanonicalJson(value));
    }
  });
  it('an item received before this version hashes as it did then (its redelivery is still one)', () => {
    const item = JSON.parse(
      '{"id":"0mwuf1twfnzegsj2l","name":"Bench draft 1","content":"Caf\\u00e9 \\ud83c\\udfac https:\\/\\/studio.com\\/ideas\\/1","tags":["b","a"],"nested":{"z":1,"y":[{"k":"v","a":null}]},"status":"Draft","scheduledAt":null,"deleted":false,"createdAt":"2026-11-24 08:11:49"}',
    ) as Record<string, unknown>;
    // Computed by the version before canonicalJson was rewritten for speed.
    expect(itemHash(item)).toBe('9ceb2b3220192151b93371d985564f30');
  });
});

describe('webhook responses (DESIGN §6.1.4)', () => {
  it('single object: spec bodies, 500 with error on failure, 202 while queued', () => {
    expect(respond(true, [{ success: true, postsvcId: 'p1' }])).toEqual({
      status: 200,
      body: { success: true, postsvcId: 'p1' },
    });
    expect(respond(true, [{ success: false, error: 'boom', code: 'PLATFORM_ERROR' }])).toEqual({
      status: 500,
      body: { success: false, error: 'boom', code: 'PLATFORM_ERROR' },
    });
    expect(respond(true, [null])).toEqual({ status: 202, body: { success: true, queued: true } });
  });
  it('array: results per item; 500 when any failed, else 202 when any queued', () => {
    const ok = { success: true };
    expect(respond(false, [ok, ok]).status).toBe(200);
    expect(respond(false, [ok, null])).toEqual({
      status: 202,
      body: { success: true, queued: true, results: [ok, { success: true, queued: true }] },
    });
    expect(respond(false, [ok, { success: false, error: 'x' }, null]).status).toBe(500);
  });
});

describe('delivery log redaction', () => {
  it('replaces secret attribute values, leaving the rest byte for byte', async () => {
    const { redactPayload } = await import('../../../main/areas/webhooks/redact.js');
    const raw =
      '[{"id":"p1","streamKey":"live_ab\\"cd\\/ef","streamUrl":"rtmp:\\/\\/x","empty":"","password":""}]';
    expect(redactPayload(raw)).toBe(
      '[{"id":"p1","streamKey":"[redacted]","streamUrl":"rtmp:\\/\\/x","empty":"","password":""}]',
    );
  });

  it('knows a secret by its name however it is spelled, and a numeric one', async () => {
    const { redactPayload } = await import('../../../main/areas/webhooks/redact.js');
    const raw =
      '{"stream_key":"a1","Stream-Key":"a2","api_key":"a3","X_API_KEY":"a4","clientSecret":"a5","accessToken":"a6","passwd":7,"name":"kept"}';
    expect(JSON.parse(redactPayload(raw))).toEqual({
      stream_key: '[redacted]',
      'Stream-Key': '[redacted]',
      api_key: '[redacted]',
      X_API_KEY: '[redacted]',
      clientSecret: '[redacted]',
      accessToken: '[redacted]',
      passwd: '[redacted]',
      name: 'kept',
    });
  });

  it('reaches a streamSource key, a name written with escapes and an object under a secret name', async () => {
    const { redactPayload } = await import('../../../main/areas/webhooks/redact.js');
    const raw =
      '{"streamSource":{"url":"rtmp:\\/\\/in","key":"k1"},"stream\\u004bey":"k2","password":{"old":"k3"},"key":"not a secret"}';
    const stored = redactPayload(raw);
    for (const secret of ['k1', 'k2', 'k3']) expect(stored).not.toContain(`"${secret}"`);
    expect(JSON.parse(stored)).toEqual({
      streamSource: { url: 'rtmp://in', key: '[redacted]' },
      streamKey: '[redacted]',
      password: '[redacted]',
      // Issue #24.3, DESIGN §7 (revised): `*key` is secret by name wherever it stands, `key` too.
      key: '[redacted]',
    });
  });
});

describe('queued webhook items', () => {
  it('carry no secret values: the rest of the item is unchanged', async () => {
    const { redactSecrets } = await import('../../../main/areas/webhooks/redact.js');
    const item = { id: 'p1', status: 'Published', streamKey: 'live_abc', streamUrl: 'rtmp://x', apiKey: '' };
    expect(redactSecrets(item)).toEqual({ ...item, streamKey: '[redacted]' });
    expect(item.streamKey).toBe('live_abc');
  });
});

describe('mayHoldSecret: the payload searched as it is', () => {
  /** The first form: `-` and `_` dropped from a copy, then the plain words searched. */
  const plainMayHoldSecret = (raw: string) => /key|passw|secret|token|\\u/i.test(raw.replace(/[-_]/g, ''));

  it('answers as the search of a copy without - and _ did, on 2,000 random texts', () => {
    const alphabet = [
      'k',
      'E',
      'y',
      'p',
      'a',
      'S',
      's',
      'w',
      'c',
      'r',
      'e',
      't',
      'o',
      'n',
      '\\',
      'u',
      '-',
      '_',
      '"',
      'x',
    ];
    let seed = 11;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    let found = 0;
    for (let i = 0; i < 2000; i++) {
      const text = Array.from(
        { length: 4 + Math.floor(random() * 12) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
      expect(mayHoldSecret(text), text).toBe(plainMayHoldSecret(text));
      if (plainMayHoldSecret(text)) found++;
    }
    // Both answers occur: the comparison is not all "false".
    expect(found).toBeGreaterThan(20);
    expect(mayHoldSecret('{"stream-Key":"x"}')).toBe(true);
    expect(mayHoldSecret('{"pass_word":"x","note":"\\u00e9"}')).toBe(true);
    expect(mayHoldSecret('{"status":"Draft"}')).toBe(false);
  });
});

describe('an area whose decision at intake throws', () => {
  it("leaves the item to its record's job (run, its outcome stored) instead of failing the delivery", async () => {
    const dir = tempDir('intake');
    const db = openDatabase(path.join(dir.path, 'bridge.sqlite'), { migrations: areaMigrations });
    const logger = pino({ level: 'silent' });
    const groupCommit = groupCommitOf(db);
    const activity = new ActivityLog(createActivityRepo(db), logger, undefined, groupCommit);
    const jobs = new JobQueue({ repo: createJobsRepo(db), activity, logger, groupCommit });
    const intake = new WebhookIntake({
      repo: createWebhooksRepo(db),
      marks: createRecordMarks(db),
      groupCommit,
      logger,
      jobs,
      activity,
      now: () => new Date(),
      budgetMs: 300,
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    jobs.register<{ id: string }>('test.record', async ({ id }) => {
      await held;
      return { success: true, skipped: true, reason: `record ${id} read` };
    });
    intake.setHandler('social-created', {
      recordJob: { kind: 'test.record', payload: (id) => ({ id }) },
      decideAtIntake: () => {
        throw new Error('a bug in the decision');
      },
    });
    jobs.start();
    try {
      const answer = await intake.receive('social-created', [{ id: 'sp0000000000000001' }], {
        rawPayload: '[{"id":"sp0000000000000001"}]',
        signedBy: null,
      });
      expect(answer).toEqual({
        status: 202,
        body: { success: true, queued: true, results: [{ success: true, queued: true }] },
      });
      release();
      const [job] = jobs.list({ limit: 5 });
      expect(job).toMatchObject({ kind: 'test.record' });
      await jobs.waitForRun(job!.id, 1, 5_000);
      expect(createWebhooksRepo(db).getEvent(`1:0`)?.outcome).toEqual({
        success: true,
        skipped: true,
        reason: 'record sp0000000000000001 read',
      });
    } finally {
      await jobs.stop(100);
      db.close();
      dir.remove();
    }
  });
});
