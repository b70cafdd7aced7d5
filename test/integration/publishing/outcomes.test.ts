import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxGateway,
  type SandboxCrm,
  type SandboxGateway,
} from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { jobsIdle } from '../../support/settle.js';

/** A gateway that does not answer, or cannot be reached: when to retry and when not to. */
const SECRET = 'whsec-publishing-outcomes';
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
    {
      tuning: { peers: { gateway: { publishTimeoutMs: 700 } } },
    },
  );
  crm.setWebhookTarget({ baseUrl: bridge.url, secret: SECRET, deliveryDelayMs: 20 });
});
afterAll(async () => {
  crm?.clearWebhookTarget();
  await bridge?.close();
  await gateway?.stop();
  await crm?.stop();
});

const publishesOf = (id: string) => gateway.publishes().filter((p) => p.body.id === id);
const statusOf = (id: string) => crm.get('PlatformPublish', id)?.status;

describe('publish outcomes', () => {
  it('does not resend a publish that got no answer: Failed, saying the outcome is unknown', async () => {
    gateway.faults.injectFault({ method: 'POST', pathPrefix: '/videosite/upload', hang: true, times: 1 });
    const { id } = crm.create('PlatformPublish', { platform: 'Videosite', title: 'Hung', status: 'Queued' });
    await eventually(() => statusOf(id) === 'Failed');
    expect(crm.get('PlatformPublish', id)?.apiResponse).toMatch(
      /did not answer properly .*: the outcome is unknown\. Check Videosite before setting this record to Queued again\./,
    );
    // The gateway did publish: sending it again by itself would have published twice.
    expect(publishesOf(id)).toHaveLength(1);
    // The echo of the Failed write-back is answered, and no publish job is left that could resend it.
    await crm.flushWebhooks();
    await jobsIdle(bridge.url, 'publishing.publish');
    expect(publishesOf(id)).toHaveLength(1);

    // The operator looked and decided: publishing again is their call.
    expect((await bridge.call('POST', `/api/publishing/${id}/retry`)).status).toBe(200);
    await eventually(() => statusOf(id) === 'Published');
    expect(publishesOf(id)).toHaveLength(2);
  });

  it('retries when the gateway could not be reached at all, and publishes once it is back', async () => {
    await gateway.faults.refuseConnections(true);
    const { id } = crm.create('PlatformPublish', {
      platform: 'Altvideo',
      title: 'Offline',
      status: 'Queued',
    });
    await eventually(async () => {
      const retries = (await bridge.call('GET', '/api/activity?type=publish.retry')).body.data;
      return retries.some((e: { data: { id: string } }) => e.data.id === id);
    });
    expect(statusOf(id)).toBe('Queued');
    await gateway.faults.refuseConnections(false);
    await eventually(() => statusOf(id) === 'Published', 15_000);
    expect(publishesOf(id)).toHaveLength(1);
  });
});
