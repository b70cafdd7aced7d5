import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCrm, type SandboxCrm } from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';
import { jobsIdle } from '../../support/settle.js';

/*
 * Issue #12.8: POST /webhooks/test makes its job sleep `delayMs`. Unbounded, four of them held
 * every slot of the queue (concurrency 4) and CRM work waited behind them. The delay is bounded
 * (2 s) and test jobs hold at most one slot, so a CRM item always finds one.
 */

let crm: SandboxCrm;
let bridge: TestBridge;

beforeAll(async () => {
  crm = await startSandboxCrm();
  bridge = await startTestBridge({ CRM_URL: crm.url, CRM_API_KEY: crm.apiKey });
});
afterAll(async () => {
  await bridge?.close();
  await crm?.stop();
});

interface JobView {
  id: number;
  status: string;
}
const testJobs = async () =>
  (await bridge.call('GET', '/api/jobs?kind=webhook.test&limit=50')).body.data as JobView[];

describe('POST /webhooks/test delayMs', () => {
  it('refuses a delay over 2 s with 400 naming delayMs and the bound; nothing is queued', async () => {
    const before = (await testJobs()).length;
    const response = await bridge.call('POST', '/webhooks/test', { body: { delayMs: 2_001 } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.body.error).toContain('delayMs');
    expect(response.body.error).toContain('2000');
    expect(response.body.details).toEqual([expect.objectContaining({ field: 'body.delayMs' })]);
    expect(await testJobs()).toHaveLength(before);

    const longest = await bridge.call('POST', '/webhooks/test', { body: { delayMs: 2_000 } });
    expect(longest.status).toBe(200);
  });

  it('a CRM item finishes while four test webhooks at the longest delay are still in flight', async () => {
    await jobsIdle(bridge.url, 'webhook.test');
    const tests = Array.from({ length: 4 }, (_, n) =>
      bridge.call('POST', '/webhooks/test', { body: { delayMs: 2_000, n } }),
    );
    // All four are queued and one is already sleeping.
    await eventually(async () => {
      const jobs = (await testJobs()).filter((job) => job.status !== 'done');
      return jobs.length === 4 && jobs.some((job) => job.status === 'running');
    });

    const content = crm.create('ContentProduction', { name: 'Ep 12', stage: 'Editing' });
    const item = await bridge.call('POST', '/webhooks/content-updated', {
      key: null,
      headers: { 'x-api-key': TEST_API_KEY },
      body: { id: content.id, stage: 'Editing' },
    });
    // Answered within the request: the item's job ran and finished, it did not wait for a slot.
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({ success: true, stage: 'Editing', recorded: true });
    const whenItemFinished = await testJobs();
    expect(whenItemFinished.filter((job) => job.status !== 'done').length).toBeGreaterThan(0);
    expect(whenItemFinished.filter((job) => job.status === 'running').length).toBeLessThanOrEqual(1);

    // The test webhooks still finish, each once.
    const answers = await Promise.all(tests);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 202)).toBe(true);
    await jobsIdle(bridge.url, 'webhook.test', 20_000);
  }, 30_000);
});
