import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * GET /api/activity?typePrefix= (issue #30.6): the Activity page's type filter finds every type
 * starting with what the operator typed ("webhook" lists webhook.test, webhook.received…), paged
 * like the rest of the list; `type=` still means one type exactly. A prefix that no event type
 * could start with is a 400 naming the parameter.
 */

let bridge: TestBridge;
const types = (body: { data: { type: string }[] }) => new Set(body.data.map((event) => event.type));

beforeAll(async () => {
  bridge = await startTestBridge();
  for (const from of ['one', 'two', 'three']) {
    expect((await bridge.call('POST', '/webhooks/test', { body: { test: true, from } })).status).toBe(200);
  }
  expect(
    (await bridge.call('PUT', '/api/settings', { body: { values: { CRM_CATCHUP_MINUTES: '10' } } })).status,
  ).toBe(200);
  await eventually(async () => {
    const listed = await bridge.call('GET', '/api/activity?type=webhook.test');
    return listed.body.data.length === 3 ? true : undefined;
  });
});
afterAll(async () => {
  await bridge?.close();
});

describe('GET /api/activity by the start of the type', () => {
  it('"webhook" lists the webhook.* events and nothing else; "settings" the settings.* ones', async () => {
    const webhook = await bridge.call('GET', '/api/activity?typePrefix=webhook&limit=100');
    expect(webhook.status).toBe(200);
    expect([...types(webhook.body)].every((type) => type.startsWith('webhook.'))).toBe(true);
    expect(webhook.body.data.filter((event: { type: string }) => event.type === 'webhook.test')).toHaveLength(
      3,
    );
    const all = await bridge.call('GET', '/api/activity?limit=100');
    expect(types(all.body).size).toBeGreaterThan(types(webhook.body).size);

    const settings = await bridge.call('GET', '/api/activity?typePrefix=settings');
    expect(types(settings.body)).toEqual(new Set(['settings.updated']));

    // Any start of the type, not only whole dotted parts: what is typed so far narrows the list.
    const partial = await bridge.call('GET', '/api/activity?typePrefix=webhook.te');
    expect(types(partial.body)).toEqual(new Set(['webhook.test']));
    const none = await bridge.call('GET', '/api/activity?typePrefix=webhooks');
    expect(none.body.data).toEqual([]);

    // The exact filter is unchanged: "webhook" is no type.
    const exact = await bridge.call('GET', '/api/activity?type=webhook');
    expect(exact.body.data).toEqual([]);
  });

  it('pages with beforeId and combines with the level', async () => {
    const ids = (body: { data: { id: number }[] }) => body.data.map((event) => event.id);
    const whole = ids((await bridge.call('GET', '/api/activity?typePrefix=webhook.&limit=100')).body);
    expect(whole.length).toBeGreaterThanOrEqual(3);
    const first = await bridge.call('GET', '/api/activity?typePrefix=webhook.&limit=2');
    const older = await bridge.call(
      'GET',
      `/api/activity?typePrefix=webhook.&limit=100&beforeId=${whole[1]}`,
    );
    expect([...ids(first.body), ...ids(older.body)]).toEqual(whole);

    const errors = await bridge.call('GET', '/api/activity?typePrefix=webhook&level=error');
    expect(errors.body.data).toEqual([]);
  });

  it('a prefix no type can start with is 400 naming query.typePrefix and its rule', async () => {
    for (const bad of ['posting%20scheduled', 'posting*', '%C3%A9v', '', 'x'.repeat(101)]) {
      const response = await bridge.call('GET', `/api/activity?typePrefix=${bad}`);
      expect(response.status, bad).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error).toMatch(/query\.typePrefix/);
    }
    const rule = await bridge.call('GET', '/api/activity?typePrefix=posting*');
    expect(rule.body.error).toContain('must be the start of an event type');
  });
});
