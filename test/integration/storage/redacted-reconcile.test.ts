import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { toCrmDatetime } from '../../../main/sandbox/index.js';
import { callSignedWebhook, eventually } from '../../support/bridge.js';
import { withPostingBridge } from '../../support/posting-bridge.js';
import { webhooksQuiet } from '../../support/settle.js';

/*
 * Issue #24.3, DESIGN §7 and §6.2: redaction by name and by value must never take what
 * reconciling needs. A SocialPost item carrying secrets (by name and inside an rtmp URL) is
 * logged redacted, and its record's job (issue #36.2) carries only the record's id; the provider
 * takes the post and never answers; the job reconciles from the provider's history by its
 * idempotencyKey, and nothing is posted twice.
 */

const SECRET = 'redacted-reconcile-secret';
const { crm, postsvc, bridge } = await withPostingBridge({
  secret: SECRET,
  bridge: {
    tuning: { peers: { postsvc: { timeoutMs: 1_000 } } },
    // The CRM's own delivery comes late: the signed one with the custom fields runs the post.
    webhooks: { deliveryDelayMs: 1_500 },
  },
});

/** What the bridge keeps of deliveries and jobs: the delivery log's payloads and every job's. */
function stored(table: 'jobs' | 'webhook_deliveries'): string[] {
  const db = new Database(path.join(bridge.dataDir, 'bridge.sqlite'), { readonly: true });
  try {
    return db
      .prepare<[], { payload: string }>(`SELECT payload FROM ${table}`)
      .all()
      .map((row) => row.payload);
  } finally {
    db.close();
  }
}

describe('a redacted job', () => {
  it('still reconciles after a timeout, without a second post', async () => {
    const creates = () => postsvc.callCount('/post', 'POST');
    const before = creates();
    postsvc.faults.injectFault({ method: 'POST', pathPrefix: '/post', hang: true, times: 1 });
    const record = crm.create('SocialPost', {
      name: 'Redacted promo',
      content: 'Redacted reconcile test',
      platform: 'Microblog',
      status: 'Scheduled',
      scheduledAt: toCrmDatetime(new Date(Date.now() + 24 * 3_600_000)),
      mediaUrl: 'https://cdn.example/ep12.png',
    });
    // As a CRM with custom fields sends it: a key by name, one inside an rtmp URL in a note.
    const item = {
      ...crm.get('SocialPost', record.id)!,
      accessKey: 'MARK-accesskey-reconcile',
      note: 'restream from rtmp://ingest.example.com/live/MARK-rtmp-reconcile',
    };
    const sent = await callSignedWebhook(bridge.url, 'social-created', JSON.stringify([item]), {
      webhookId: 'wh-reconcile',
      secret: SECRET,
    });
    expect([200, 202]).toContain(sent.status);
    await webhooksQuiet(crm);
    await eventually(() => crm.get('SocialPost', record.id)?.postsvcId, 10_000);

    // The logged item was redacted, and no job carries it ...
    const payloads = stored('webhook_deliveries').filter((payload) => payload.includes(record.id));
    expect(payloads.filter((payload) => payload.includes('[redacted]'))).toHaveLength(1);
    for (const payload of [...payloads, ...stored('jobs')]) expect(payload).not.toContain('MARK-');
    expect(payloads.find((payload) => payload.includes('[redacted]'))).toContain(
      'rtmp://ingest.example.com/live/[redacted]',
    );
    // ... and the post went out once: the hung create was reconciled by its key, not sent again.
    const posts = postsvc.posts().filter((p) => p.post === 'Redacted reconcile test');
    expect(posts).toHaveLength(1);
    expect(crm.get('SocialPost', record.id)!.postsvcId).toBe(posts[0]!.id);
    expect(creates() - before).toBe(1);
  }, 30_000);
});
