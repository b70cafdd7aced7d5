import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCrm, toCrmDatetime, type SandboxCrm } from '../../../main/sandbox/index.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * GET /api/recorder/next-production (DESIGN §5.6): the next scheduled ContentProduction, read
 * from a real (sandbox) CRM, and the YYYYMMDD_<name> the spec's rule gives its recording.
 */
const NOW = new Date('2026-05-04T10:30:00.000Z');
let crm: SandboxCrm;
let bridge: TestBridge;

beforeAll(async () => {
  crm = await startSandboxCrm({ now: () => NOW });
  bridge = await startTestBridge(
    { CRM_URL: crm.url, CRM_API_KEY: crm.apiKey },
    { areas: ['recorder'], now: () => NOW },
  );
});
afterAll(async () => {
  await bridge?.close();
  await crm?.stop();
});

const at = (iso: string) => toCrmDatetime(new Date(iso));

describe('the next scheduled production', () => {
  it('is null while nothing is scheduled from an hour ago on', async () => {
    crm.create('ContentProduction', { name: 'Last week', scheduledDate: at('2026-04-27T10:00:00Z') });
    const answer = await bridge.call('GET', '/api/recorder/next-production');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, production: null, filename: null });
  });

  it('is the earliest from an hour ago, named YYYYMMDD_<name> from its own day', async () => {
    crm.create('ContentProduction', {
      name: 'Later: the finale!',
      scheduledDate: at('2026-05-09T18:00:00Z'),
    });
    const now = crm.create('ContentProduction', {
      name: 'Ep. 42 — Café & Co',
      scheduledDate: at('2026-05-04T09:45:00Z'),
    });
    crm.create('ContentProduction', { name: 'Two hours ago', scheduledDate: at('2026-05-04T08:29:00Z') });
    const answer = await bridge.call('GET', '/api/recorder/next-production');
    expect(answer.body).toEqual({
      success: true,
      production: { id: now.id, name: 'Ep. 42 — Café & Co', scheduledDate: '2026-05-04T09:45:00.000Z' },
      filename: '20260504_Ep_42_Café_Co',
    });
  });

  it('needs the key', async () => {
    expect((await bridge.call('GET', '/api/recorder/next-production', { key: 'wrong' })).status).toBe(401);
  });
});

describe('without a CRM', () => {
  it('answers 503 NOT_CONFIGURED naming the settings', async () => {
    const bare = await startTestBridge({}, { areas: ['recorder'] });
    try {
      const answer = await bare.call('GET', '/api/recorder/next-production');
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({
        code: 'NOT_CONFIGURED',
        error: expect.stringContaining('CRM_URL'),
      });
    } finally {
      await bare.close();
    }
  });
});
