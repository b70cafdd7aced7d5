import { expect, it } from 'vitest';
import { phpJsonEncode, toCrmDatetime } from '../../../main/sandbox/index.js';
import { callSignedWebhook, eventually } from '../../support/bridge.js';
import { withPostingBridge } from '../../support/posting-bridge.js';

/**
 * Nothing overdue is silent (DESIGN §6.9): a job still waiting more than 2 min after it was due
 * makes GET /health `degraded`, and with the key it says which job and why in `reasons`.
 * Here the provider answers slowly, every slot of the queue waits on it, and the bridge's clock
 * moves 3 min on while a fifth post's job still waits for a slot.
 */

const SECRET = 'alarms-secret';
const PROVIDER_DELAY_MS = 4_000;
let clock = Date.now();
const { crm, postsvc, bridge } = await withPostingBridge({
  secret: SECRET,
  bridge: { webhookBudgetMs: 500, now: () => new Date(clock) },
});

it('an overdue job makes /health degraded, naming the job in reasons to a caller with the key only', async () => {
  const before = await bridge.call('GET', '/health');
  expect(before.body).toMatchObject({ status: 'ok', reasons: [], alarms: [] });

  postsvc.faults.injectFault({ method: 'POST', pathPrefix: '/post', delayMs: PROVIDER_DELAY_MS, times: 5 });
  const records = Array.from({ length: 5 }, (_, i) =>
    crm.create('SocialPost', {
      name: `Alarm post ${i}`,
      content: `Alarm post ${i}: the new episode https://studio.com/ep/${i}`,
      platform: 'Microblog',
      status: 'Scheduled',
      scheduledAt: toCrmDatetime(new Date(clock + (24 + 3 * i) * 3_600_000)),
    }),
  );
  const delivery = callSignedWebhook(bridge.url, 'social-created', phpJsonEncode(records), {
    webhookId: 'wh-alarms',
    secret: SECRET,
  });
  // Four jobs hold the queue's slots waiting on the provider; the fifth waits for one.
  await eventually(
    async () => (await bridge.call('GET', '/api/jobs?status=running&limit=10')).body.data.length === 4,
  );
  clock += 3 * 60_000;

  const health = await bridge.call('GET', '/health');
  expect(health.body.status).toBe('degraded');
  expect(health.body.alarms).toEqual([
    expect.objectContaining({ id: expect.stringMatching(/^job:\d+$/), kind: 'job' }),
  ]);
  expect(health.body.reasons).toEqual([
    expect.stringMatching(/^job \d+ \(.+\) was due 3 min ago and has not run$/),
  ]);
  const anonymous = await bridge.call('GET', '/health', { key: null });
  expect(anonymous.body.status).toBe('degraded');
  expect(anonymous.body).not.toHaveProperty('reasons');
  expect(anonymous.body).not.toHaveProperty('alarms');

  await delivery;
  // Once the job has run, the alarm is gone by itself.
  await eventually(async () => (await bridge.call('GET', '/health')).body.status === 'ok', 20_000);
});
