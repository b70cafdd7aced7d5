import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  phpJsonEncode,
  startSandboxCrm,
  startSandboxGateway,
  type SandboxCrm,
  type SandboxGateway,
} from '../../../main/sandbox/index.js';
import { callSignedWebhook, eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';

const SECRET = 'whsec-publishing-test';
let crm: SandboxCrm;
let gateway: SandboxGateway;
let bridge: TestBridge;

/** The CRM delivers its real webhooks (signed PHP-JSON batches, sparse updates) to the bridge. */
const deliverEverything = () =>
  crm.setWebhookTarget({ baseUrl: bridge.url, secret: SECRET, deliveryDelayMs: 20 });

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
  deliverEverything();
});
afterAll(async () => {
  crm?.clearWebhookTarget();
  await bridge?.close();
  await gateway?.stop();
  await crm?.stop();
});

const production = (name: string) => crm.create('ContentProduction', { name, contentType: 'Episode' }).id;
const publishRecord = (attrs: Record<string, unknown>) =>
  crm.create('PlatformPublish', { publishType: 'Upload', status: 'Queued', ...attrs });
const record = (id: string) => crm.get('PlatformPublish', id)!;
const publishesOf = (id: string) => gateway.publishes().filter((p) => p.body.id === id);
const statusOf = (id: string) => record(id).status;
/** Every webhook (and echo of a write-back) delivered and answered, and no publish job left to run. */
const settle = async () => {
  await webhooksQuiet(crm);
  await jobsIdle(bridge.url, 'publishing.publish');
};
const deliveryOf = (event: string, id: string) =>
  crm.deliveries().filter((d) => d.event === event && d.body.includes(id));
const panel = async (contentProductionId: string) => {
  const response = await bridge.call('GET', `/api/publishing?contentProductionId=${contentProductionId}`);
  expect(response.status).toBe(200);
  return response.body.data[0].records as Array<Record<string, unknown>>;
};

describe('platform webhooks (spec §3.5, §6)', () => {
  it('publishes a Queued record, forwarding its fields, writes the result back, and ignores the echo', async () => {
    const cp = production('Ep 1');
    const { id } = publishRecord({
      contentProductionId: cp,
      platform: 'Videosite',
      title: 'Ep 1: Start Small',
      description: 'Show notes',
      thumbnailUrl: 'https://cdn.example/ep1.jpg',
      scheduledAt: '2026-06-01 18:00:00',
    });
    await eventually(() => statusOf(id) === 'Published');
    const published = record(id);
    const [sent, ...more] = publishesOf(id);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ path: '/videosite/upload', status: 200 });
    expect(sent!.body).toMatchObject({
      id,
      platform: 'Videosite',
      publishType: 'Upload',
      title: 'Ep 1: Start Small',
      description: 'Show notes',
      thumbnailUrl: 'https://cdn.example/ep1.jpg',
      scheduledAt: '2026-06-01T18:00:00.000Z',
      contentProductionId: cp,
    });
    expect(sent!.body).not.toHaveProperty('status');
    expect(published).toMatchObject({
      platformUrl: (sent!.response as { platformUrl: string }).platformUrl,
      platformId: (sent!.response as { platformId: string }).platformId,
      apiResponse: null,
    });
    expect(published.publishedAt).not.toBeNull();
    await eventually(() => deliveryOf('platform-created', id)[0]?.status === 200);

    // The CRM echoes the write-back as platform-updated: delivered, answered, nothing published again.
    await settle();
    expect(deliveryOf('platform-updated', id).map((d) => d.status)).toEqual([200]);
    expect(publishesOf(id)).toHaveLength(1);
  });

  it('does nothing for a Draft record until it is set to Queued', async () => {
    const { id } = publishRecord({ platform: 'Altvideo', title: 'Draft first', status: 'Draft' });
    await settle();
    await eventually(() => deliveryOf('platform-created', id)[0]?.status === 200);
    expect(publishesOf(id)).toEqual([]);
    crm.update('PlatformPublish', id, { status: 'Queued' });
    await eventually(() => statusOf(id) === 'Published');
    expect(publishesOf(id)[0]?.path).toBe('/altvideo/upload');
  });

  it('sets Failed with the gateway’s answer and answers 500; a Failed record set back to Queued is retried', async () => {
    const { id } = publishRecord({ platform: 'Altvideo', publishType: 'Livestream' });
    await eventually(() => statusOf(id) === 'Failed');
    expect(record(id).apiResponse).toBe(
      'VALIDATION_ERROR: title is required (altvideo livestream needs a non-empty title)',
    );
    await eventually(() => deliveryOf('platform-created', id)[0]?.status === 500);
    await settle();
    expect(publishesOf(id)).toHaveLength(1);

    crm.update('PlatformPublish', id, { title: 'Now with a title', status: 'Queued' });
    await eventually(() => statusOf(id) === 'Published');
    expect(record(id)).toMatchObject({ apiResponse: null, streamUrl: expect.stringMatching(/^rtmps:/) });
    expect(publishesOf(id).map((p) => p.status)).toEqual([400, 200]);
  });

  it('fails a platform without a route: "no route for platform X"', async () => {
    const { id } = publishRecord({ platform: 'Podcast', title: 'Audio only' });
    await eventually(() => statusOf(id) === 'Failed');
    expect(record(id).apiResponse).toBe('no route for platform Podcast');
    expect(publishesOf(id)).toEqual([]);
  });

  it('fails a scheduledAt before 2000 or more than 5 years ahead with the bound it breaks; nothing is published', async () => {
    const ancient = publishRecord({
      platform: 'Videosite',
      title: 'Dated year 0026',
      scheduledAt: '0026-05-01 10:00:00',
    });
    const sixYears = new Date(Date.now() + 6 * 366 * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
    const far = publishRecord({ platform: 'Altvideo', title: 'Dated six years out', scheduledAt: sixYears });
    await eventually(() => statusOf(ancient.id) === 'Failed' && statusOf(far.id) === 'Failed');
    expect(record(ancient.id).apiResponse).toBe(
      'INVALID_DATE: scheduledAt: 0026-05-01T10:00:00.000Z is before 2000-01-01',
    );
    expect(record(far.id).apiResponse).toMatch(/^INVALID_DATE: scheduledAt: \S+ is more than 5 years ahead/);
    await settle();
    expect(publishesOf(ancient.id)).toEqual([]);
    expect(publishesOf(far.id)).toEqual([]);
  });

  it('retries a publish the gateway turned away with 503, then publishes once', async () => {
    gateway.faults.injectFault({
      method: 'POST',
      pathPrefix: '/altvideo/upload',
      status: 503,
      body: { error: 'busy', code: 'STREAMHOST_ERROR' },
      times: 1,
    });
    const { id } = publishRecord({ platform: 'Altvideo', title: 'Busy gateway' });
    await eventually(() => statusOf(id) === 'Published', 15_000);
    expect(publishesOf(id)).toHaveLength(1);
    const retries = (await bridge.call('GET', '/api/activity?type=publish.retry')).body.data;
    expect(
      retries.some(
        (e: { data: { id: string; attempt?: number } }) => e.data.id === id && e.data.attempt === 1,
      ),
    ).toBe(true);
  });
});

describe('dependents (DESIGN §6.4)', () => {
  it('holds a Streamhost record until Videosite publishes, then publishes it with Videosite’s stream', async () => {
    const cp = production('Live Q&A');
    const dependent = publishRecord({
      contentProductionId: cp,
      platform: 'Streamhost',
      publishType: 'Livestream',
      title: 'Live Q&A',
    });
    await eventually(async () => (await panel(cp))[0]?.state === 'waiting');
    expect((await panel(cp))[0]).toMatchObject({
      state: 'waiting',
      waitingOn: 'Videosite',
      note: 'waiting for a Videosite publish record of this production',
    });
    expect(statusOf(dependent.id)).toBe('Queued');
    expect(publishesOf(dependent.id)).toEqual([]);
    // Noted in the bridge: the webhook was handled and the record is held, not published.
    await eventually(async () => {
      const waiting = (await bridge.call('GET', '/api/activity?type=publish.waiting')).body.data;
      return waiting.some((e: { data: { id: string } }) => e.data.id === dependent.id);
    });
    await eventually(() => deliveryOf('platform-created', dependent.id)[0]?.status === 200);
    expect(statusOf(dependent.id)).toBe('Queued');

    const primary = publishRecord({
      contentProductionId: cp,
      platform: 'Videosite',
      publishType: 'Livestream',
      title: 'Live Q&A',
    });
    await eventually(() => statusOf(dependent.id) === 'Published');
    expect(statusOf(primary.id)).toBe('Published');
    const primaryResult = publishesOf(primary.id)[0]!.response as { streamUrl: string; streamKey: string };
    const [sent, ...again] = publishesOf(dependent.id);
    expect(again).toEqual([]);
    expect(sent).toMatchObject({ path: '/streamhost/livestream', status: 200 });
    expect(sent!.body).toMatchObject({
      streamUrl: primaryResult.streamUrl,
      streamKey: primaryResult.streamKey,
    });
    const order = gateway.publishes().map((p) => p.body.id);
    expect(order.indexOf(primary.id)).toBeLessThan(order.indexOf(dependent.id));

    // The panel shows both published, keys masked.
    const view = await panel(cp);
    expect(view.map((r) => r.state)).toEqual(['published', 'published']);
    expect(JSON.stringify(view)).not.toContain(primaryResult.streamKey);
    expect(view[1]!.streamKey).toMatch(/^••••/);
    await settle();
    expect(publishesOf(dependent.id)).toHaveLength(1);
    expect(publishesOf(primary.id)).toHaveLength(1);
  });
});

describe('no double publishing', () => {
  it('publishes the same Queued event once, sent twice in a row or at once, with a retry on top', async () => {
    // The record exists without the CRM telling the bridge; the test delivers the events itself.
    crm.setWebhookTarget({ baseUrl: bridge.url, secret: SECRET, events: ['guest-created'] });
    const { id } = publishRecord({ platform: 'Videosite', title: 'Twice' });
    deliverEverything();
    const item = (second: number) => ({ id, status: 'Queued', modifiedAt: `2026-06-01 10:00:0${second}` });
    const deliver = (items: Record<string, unknown>[]) =>
      callSignedWebhook(bridge.url, 'platform-updated', phpJsonEncode(items), {
        webhookId: 'wh-test',
        secret: SECRET,
      });

    const atOnce = await Promise.all([
      deliver([item(1)]),
      deliver([item(2)]),
      deliver([item(3), item(4)]),
      bridge.call('POST', `/api/publishing/${id}/retry`),
    ]);
    expect(atOnce.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);
    // The retry either queued its own run or found the webhook's publish in flight.
    expect([200, 409]).toContain(atOnce[3]!.status);
    const inARow = [await deliver([item(1)]), await deliver([item(5)])];
    expect(inARow.map((r) => r.status)).toEqual([200, 200]);
    await eventually(() => statusOf(id) === 'Published');
    await settle();
    expect(publishesOf(id)).toHaveLength(1);

    // Five distinct items: one of them published, the others found it done. The repeat of
    // item 1 came after the bridge wrote Published back: a genuine repeat (DESIGN §6.1.2), run
    // again, and its read of the record and ledger finds the publish done.
    const outcomes = [...atOnce.slice(0, 3), inARow[1]!].flatMap((r) => r.body.results);
    expect(outcomes).toHaveLength(5);
    expect(outcomes.every((o: { success: boolean }) => o.success)).toBe(true);
    expect(outcomes.filter((o: { status?: string }) => o.status === 'Published').length).toBeLessThanOrEqual(
      1,
    );
    expect(inARow[0]!.body.results).toEqual([expect.objectContaining({ success: true })]);
  });
});

describe('operator retry (POST /api/publishing/:id/retry)', () => {
  it('sets a Failed record to Queued and publishes it; refuses a Published one; 404 for an unknown id', async () => {
    const cp = production('Ep 9');
    const { id } = publishRecord({ contentProductionId: cp, platform: 'Altvideo' });
    await eventually(() => statusOf(id) === 'Failed');
    expect((await panel(cp))[0]).toMatchObject({
      state: 'failed',
      apiResponse: expect.stringContaining('title is required'),
    });

    crm.update('PlatformPublish', id, { title: 'Fixed in the CRM' });
    await settle();
    expect(statusOf(id)).toBe('Failed');
    const retried = await bridge.call('POST', `/api/publishing/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({
      success: true,
      id,
      status: 'Queued',
      message: 'set from Failed to Queued; publishing now',
    });
    await eventually(() => statusOf(id) === 'Published');
    expect(publishesOf(id).map((p) => p.status)).toEqual([400, 200]);

    const again = await bridge.call('POST', `/api/publishing/${id}/retry`);
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
    const unknown = await bridge.call('POST', '/api/publishing/nope0000000000000/retry');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('lists every production’s records with the route table', async () => {
    const response = await bridge.call('GET', '/api/publishing');
    expect(response.status).toBe(200);
    expect(response.body.routes).toContainEqual({
      platform: 'Streamhost',
      livestream: '/streamhost/livestream',
      upload: '/streamhost/upload',
      dependsOn: 'Videosite',
    });
    const total = response.body.data.reduce(
      (n: number, g: { records: unknown[] }) => n + g.records.length,
      0,
    );
    expect(total).toBe(crm.list('PlatformPublish').length);
    // Everything has settled: nothing is left in flight.
    const states = response.body.data.flatMap((g: { records: Array<{ state: string }> }) =>
      g.records.map((r) => r.state),
    );
    expect(states).not.toContain('publishing');
  });
});
