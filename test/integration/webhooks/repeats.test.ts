import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  phpJsonEncode,
  startSandboxCrm,
  startSandboxGateway,
  startSandboxPostsvc,
  toCrmDatetime,
  type SandboxCrm,
  type SandboxGateway,
  type SandboxPostsvc,
} from '../../../main/sandbox/index.js';
import {
  callSignedWebhook,
  eventually,
  webhookIdFor,
  startTestBridge,
  type TestBridge,
} from '../../support/bridge.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';

/**
 * DESIGN §5.1/§6.1 (revised): EspoCRM update items carry only the changed attributes and no
 * modifiedAt, so two real changes can be byte-identical. An identical item is a redelivery only
 * when nothing touched the record in between: no other item for it, no write-back of the
 * bridge (even one whose echo never arrived). Everything else is processed, and every handler
 * reads the record (and its ledger) before it acts.
 */

const SECRET = 'whsec-repeats-test';
let crm: SandboxCrm;
let gateway: SandboxGateway;
let postsvc: SandboxPostsvc;
let bridge: TestBridge;

beforeAll(async () => {
  crm = await startSandboxCrm();
  gateway = await startSandboxGateway();
  postsvc = await startSandboxPostsvc({ plan: 'business' });
  bridge = await startTestBridge({
    CRM_URL: crm.url,
    CRM_API_KEY: crm.apiKey,
    CRM_WEBHOOK_SECRETS: SECRET,
    GATEWAY_URL: gateway.url,
    GATEWAY_API_KEY: gateway.apiKey,
    POSTSVC_URL: postsvc.url,
    POSTSVC_API_KEY: postsvc.apiKey,
    POSTSVC_PLAN: 'business',
  });
});
afterAll(async () => {
  crm?.clearWebhookTarget();
  await bridge?.close();
  await postsvc?.stop();
  await gateway?.stop();
  await crm?.stop();
});

/** The CRM delivers every webhook itself (echoes of write-backs included). */
const deliverEverything = () =>
  crm.setWebhookTarget({ baseUrl: bridge.url, secret: SECRET, deliveryDelayMs: 20 });
/** The CRM delivers nothing of these entities: the test sends the items, and no echo ever arrives. */
const deliverByHand = () =>
  crm.setWebhookTarget({ baseUrl: bridge.url, secret: SECRET, events: ['guest-created'] });

/** Sends a signed batch as EspoCRM does, with exactly these bytes. */
function deliver(event: string, raw: string) {
  return callSignedWebhook(bridge.url, event, raw, {
    webhookId: webhookIdFor('wh-repeats', event),
    secret: SECRET,
  });
}

const settle = async () => {
  await webhooksQuiet(crm);
  await jobsIdle(bridge.url, 'webhook.item');
  await jobsIdle(bridge.url, 'publishing.publish');
  await jobsIdle(bridge.url, 'posting.social-post');
};
const publishesOf = (id: string) => gateway.publishes().filter((p) => p.body.id === id);
const production = (name: string) => crm.create('ContentProduction', { name, contentType: 'Episode' }).id;
/** A Draft upload without a title: the gateway refuses it (400 "title is required") until one is set. */
const draftPublish = (name: string) =>
  crm.create('PlatformPublish', {
    contentProductionId: production(name),
    platform: 'Videosite',
    publishType: 'Upload',
    status: 'Draft',
  }).id;
/** The operator fixes what the gateway refused (the CRM may or may not tell the bridge). */
const fixTitle = (id: string) => crm.update('PlatformPublish', id, { title: 'Fixed title' });

describe('Failed → Queued publishes again', () => {
  it('when the echo of the Failed write-back was delivered', async () => {
    deliverEverything();
    const id = draftPublish('Repeat with echo');
    await settle();
    crm.update('PlatformPublish', id, { status: 'Queued' });
    await eventually(() => crm.get('PlatformPublish', id)?.status === 'Failed');
    await settle();
    expect(publishesOf(id)).toHaveLength(1);

    // The operator fixes the record and sets it back to Queued: the same bytes again.
    fixTitle(id);
    await settle();
    crm.update('PlatformPublish', id, { status: 'Queued' });
    await eventually(() => crm.get('PlatformPublish', id)?.status === 'Published');
    await settle();
    const [first, second, ...more] = publishesOf(id);
    expect([first?.status, second?.status, more]).toEqual([400, 200, []]);
    const queuedItems = crm
      .deliveries()
      .filter((d) => d.event === 'platform-updated' && d.body === phpJsonEncode([{ id, status: 'Queued' }]));
    expect(queuedItems.length).toBeGreaterThanOrEqual(2);
    // The echo of the Published write-back called nothing.
    expect(publishesOf(id)).toHaveLength(2);
  });

  it('when the echo of the Failed write-back was lost', async () => {
    deliverByHand();
    const id = draftPublish('Repeat without echo');
    const queued = phpJsonEncode([{ id, status: 'Queued' }]);
    crm.update('PlatformPublish', id, { status: 'Queued' });
    const failed = await deliver('platform-updated', queued);
    expect(failed.status).toBe(500);
    expect(crm.get('PlatformPublish', id)?.status).toBe('Failed');

    // Only the write-back of Failed touched the record since (its echo never came).
    fixTitle(id);
    crm.update('PlatformPublish', id, { status: 'Queued' });
    const again = await deliver('platform-updated', queued);
    expect(again.status).toBe(200);
    expect(crm.get('PlatformPublish', id)?.status).toBe('Published');
    expect(publishesOf(id).map((p) => p.status)).toEqual([400, 200]);
  });
});

describe('redeliveries', () => {
  it('a batch redelivered after a 500 does nothing twice and is answered 200', async () => {
    deliverByHand();
    const id = draftPublish('Redelivered after 500');
    const raw = phpJsonEncode([{ id, status: 'Queued' }]);
    crm.update('PlatformPublish', id, { status: 'Queued' });
    expect((await deliver('platform-updated', raw)).status).toBe(500);
    const redelivered = await deliver('platform-updated', raw);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.success).toBe(true);
    expect(publishesOf(id)).toHaveLength(1);
    expect(crm.get('PlatformPublish', id)?.status).toBe('Failed');
  });

  it('an identical item with nothing in between gets the stored answer and runs nothing', async () => {
    deliverByHand();
    const id = draftPublish('Plain redelivery');
    const raw = phpJsonEncode([{ id, status: 'Draft', description: 'Plain redelivery' }]);
    const first = await deliver('platform-updated', raw);
    const second = await deliver('platform-updated', raw);
    expect(first.status).toBe(200);
    expect(second).toMatchObject({ status: 200, body: first.body });
    const activity = await bridge.call('GET', '/api/activity?type=webhook.received&limit=5');
    expect(activity.body.data[0].message).toContain('1 already seen');
  });
});

describe('SocialPost Scheduled → Draft → Scheduled → Draft → Scheduled', () => {
  it('ends with one live provider post and the record pointing at it', async () => {
    deliverEverything();
    const record = crm.create('SocialPost', {
      name: 'Repeat promo',
      content: 'Episode 40 is out',
      platform: 'Microblog',
      status: 'Draft',
      scheduledAt: toCrmDatetime(new Date(Date.now() + 24 * 3_600_000)),
    });
    await settle();
    for (const status of ['Scheduled', 'Draft', 'Scheduled', 'Draft', 'Scheduled']) {
      crm.update('SocialPost', record.id, { status });
      await settle();
    }
    const live = postsvc.posts().filter((p) => p.post === 'Episode 40 is out' && p.status === 'scheduled');
    expect(live).toHaveLength(1);
    expect(crm.get('SocialPost', record.id)).toMatchObject({ status: 'Scheduled', postsvcId: live[0]!.id });
  });
});

describe('content items are hints; the stage is read from the record', () => {
  it('a stale item arriving after a newer one records no false transition', async () => {
    deliverByHand();
    const content = crm.create('ContentProduction', { name: 'Stale stages', stage: 'Editing' });
    const guest = crm.create('GuestBooking', { name: 'Stale Guest', contentProductionId: content.id });
    crm.update('ContentProduction', content.id, { stage: 'Published' });
    const newer = await deliver('content-updated', phpJsonEncode([{ id: content.id, stage: 'Published' }]));
    expect(newer.status).toBe(200);
    const stale = await deliver('content-updated', phpJsonEncode([{ id: content.id, stage: 'Editing' }]));
    expect(stale.status).toBe(200);
    const timeline = await bridge.call('GET', `/api/guests/${guest.id}/timeline`);
    expect(timeline.status).toBe(200);
    expect(timeline.body.contentStages.map((s: { stage: string }) => s.stage)).toEqual(['Published']);
  });
});
