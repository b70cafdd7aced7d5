import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startSandboxAutomation,
  startSandboxCrm,
  type SandboxAutomation,
  type SandboxCrm,
} from '../../../main/sandbox/index.js';
import {
  callSignedWebhook,
  eventually,
  webhookIdsFor,
  startTestBridge,
  type TestBridge,
} from '../../support/bridge.js';
import { jobsIdle } from '../../support/settle.js';

const SECRET = 'guests-webhook-secret';
const WEBHOOK_ID = 'wh-guests';
const AUTH = 'X-N8n-Key: n8n-secret-4242';

let crm: SandboxCrm;
let automation: SandboxAutomation;
let bridge: TestBridge;
let contentId: string;
let emailSeq = 0;

beforeAll(async () => {
  crm = await startSandboxCrm({ warn: () => undefined });
  automation = await startSandboxAutomation({ authHeader: AUTH });
  bridge = await startTestBridge({
    CRM_URL: crm.url,
    CRM_API_KEY: crm.apiKey,
    CRM_WEBHOOK_SECRETS: SECRET,
    AUTOMATION_URL: automation.url,
    AUTOMATION_AUTH_HEADER: AUTH,
  });
  // Long gathering delay: the test decides when the CRM delivers (flushWebhooks).
  crm.setWebhookTarget({
    baseUrl: bridge.url,
    secret: SECRET,
    webhookIds: webhookIdsFor(WEBHOOK_ID),
    deliveryDelayMs: 60_000,
  });
  contentId = crm.create('ContentProduction', {
    name: 'The Studio Hour #12: Tape Is Back',
    contentType: 'Episode',
    stage: 'Scheduled',
    showName: 'The Studio Hour',
    scheduledDate: '2026-05-12 13:00:00',
    platforms: ['Videosite', 'Altvideo'],
  }).id;
});
afterAll(async () => {
  await bridge?.close();
  await crm?.stop();
  await automation?.stop();
});
beforeEach(() => automation.clearReceived());

/** A guest the bridge has seen created (at Responded), as the CRM delivers it. */
async function newGuest(name: string, stage = 'Responded') {
  const guest = crm.create('GuestBooking', {
    name,
    email: `guest${++emailSeq}@example.org`,
    stage,
    timezone: 'Asia/Tokyo',
    topics: 'tape machines, mastering',
    scheduledDate: '2026-05-12 13:00:00',
    contentProductionId: contentId,
  });
  await crm.flushWebhooks();
  return guest.id;
}

/** Every workflow run the bridge queued has been sent to the engine (or given up): nothing more will arrive. */
const workflowsIdle = () => jobsIdle(bridge.url, 'guests.workflow');

const runsOf = async (guestId: string) => {
  const response = await bridge.call('GET', `/api/guests/${guestId}/timeline`);
  expect(response.status).toBe(200);
  return response.body.runs as Array<Record<string, unknown>>;
};
const receivedFor = (guestId: string, workflow?: string) =>
  automation
    .received()
    .filter(
      (run) =>
        (run.body as { guest?: { id?: string } }).guest?.id === guestId &&
        (workflow === undefined || run.workflow === workflow),
    );

describe('guest-updated starts the stage workflow at n8n (spec §3.3, DESIGN §5.4)', () => {
  it('a move into Confirmed starts guest-confirmed with the full guest, its content and the confirmation email', async () => {
    const id = await newGuest('Jonas Weber');
    crm.update('GuestBooking', id, { stage: 'Confirmed' });
    await crm.flushWebhooks();
    const delivery = crm
      .deliveries()
      .filter((d) => d.event === 'guest-updated')
      .at(-1);
    expect(delivery?.status).toBe(200);

    const [run] = await eventually(() => {
      const found = receivedFor(id);
      return found.length > 0 ? found : null;
    });
    expect(run?.workflow).toBe('guest-confirmed');
    expect(run?.headers['x-n8n-key']).toBe('••••4242');
    const body = run?.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    // The update item was sparse ({id, stage, modifiedAt}); the payload is the full record.
    expect(body.guest).toMatchObject({
      id,
      name: 'Jonas Weber',
      stage: 'Confirmed',
      timezone: 'Asia/Tokyo',
      topics: 'tape machines, mastering',
      scheduledDate: '2026-05-12T13:00:00.000Z',
    });
    expect(body.content).toEqual({
      id: contentId,
      name: 'The Studio Hour #12: Tape Is Back',
      scheduledDate: '2026-05-12T13:00:00.000Z',
    });
    expect(body.transition).toMatchObject({ from: 'Responded', to: 'Confirmed' });
    expect(body.email.moment).toBe('confirmation');
    expect(body.email.to).toMatch(/@example\.org$/);
    expect(body.email.subject).toBe('Confirmed: The Studio Hour on Tuesday 12 May 2026');
    // 13:00 UTC is 22:00 in Tokyo.
    expect(body.email.body).toContain('Time: 22:00 (Asia/Tokyo)');
    expect(body.email.body).toContain('Episode: The Studio Hour #12: Tape Is Back');

    const runs = await eventually(async () => {
      const list = await runsOf(id);
      return list[0]?.status === 'started' ? list : null;
    });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ workflow: 'guest-confirmed', trigger: 'stage-change', attempts: 1 });
  });

  it('Outreach and Responded start nothing; Scheduled, Recorded, Published start theirs', async () => {
    const id = await newGuest('Nadia Haddad', 'Outreach');
    crm.update('GuestBooking', id, { stage: 'Responded' });
    await crm.flushWebhooks();
    for (const stage of ['Scheduled', 'Recorded', 'Published']) {
      crm.update('GuestBooking', id, { stage });
      await crm.flushWebhooks();
    }
    await eventually(() => receivedFor(id).length === 3);
    expect(receivedFor(id).map((r) => r.workflow)).toEqual([
      'guest-scheduled',
      'guest-recorded',
      'guest-published',
    ]);
    const recorded = receivedFor(id, 'guest-recorded')[0]?.body as {
      email: { moment: string; body: string };
    };
    expect(recorded.email.moment).toBe('thank-you');
    expect(recorded.email.body).toContain('on Videosite and Altvideo');
    const published = receivedFor(id, 'guest-published')[0]?.body as { email: unknown };
    expect(published.email).toBeNull();
    const timeline = await bridge.call('GET', `/api/guests/${id}/timeline`);
    expect(timeline.body.stages.map((s: { stage: string }) => s.stage)).toEqual([
      'Outreach',
      'Responded',
      'Scheduled',
      'Recorded',
      'Published',
    ]);
  });

  it('once per guest and stage: unrelated changes, a redelivery, the echo and a return never start it again', async () => {
    const id = await newGuest('Ravi Patel');
    crm.update('GuestBooking', id, { stage: 'Confirmed' });
    await crm.flushWebhooks();
    await eventually(() => receivedFor(id).length === 1);

    // An unrelated change.
    crm.update('GuestBooking', id, { notes: 'prefers afternoons', bio: 'Audience researcher.' });
    await crm.flushWebhooks();
    // The same delivery again, byte for byte (EspoCRM retries), and a re-signed stale copy.
    const delivered = crm.deliveries().filter((d) => d.event === 'guest-updated' && d.body.includes(id));
    const first = delivered[0]!;
    const signer = { webhookId: first.webhookId, secret: SECRET };
    const again = await callSignedWebhook(bridge.url, 'guest-updated', first.body, signer);
    expect(again.status).toBe(200);
    const copy = JSON.stringify([{ id, stage: 'Confirmed', modifiedAt: '2030-01-01 00:00:00' }]);
    const stale = await callSignedWebhook(bridge.url, 'guest-updated', copy, signer);
    expect(stale.body.results[0]).toMatchObject({
      success: true,
      skipped: true,
      reason: 'stage unchanged (Confirmed)',
    });

    // Back to Responded and forward again: history says it ran already.
    crm.update('GuestBooking', id, { stage: 'Responded' });
    await crm.flushWebhooks();
    crm.update('GuestBooking', id, { stage: 'Confirmed' });
    await crm.flushWebhooks();
    const last = crm
      .deliveries()
      .filter((d) => d.event === 'guest-updated')
      .at(-1);
    expect(last?.status).toBe(200);

    // The dashboard moves the guest: the bridge starts guest-scheduled; the CRM's echo starts nothing.
    const moved = await bridge.call('POST', `/api/guests/${id}/stage`, { body: { stage: 'Scheduled' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      changed: true,
      guest: { stage: 'Scheduled' },
      run: { workflow: 'guest-scheduled' },
    });
    await crm.flushWebhooks();
    const echo = crm
      .deliveries()
      .filter((d) => d.event === 'guest-updated')
      .at(-1);
    expect(echo?.body).toContain('Scheduled');
    expect(echo?.status).toBe(200);

    await eventually(() => receivedFor(id, 'guest-scheduled').length === 1);
    await workflowsIdle();
    expect(receivedFor(id).map((r) => r.workflow)).toEqual(['guest-confirmed', 'guest-scheduled']);
    const runs = await runsOf(id);
    expect(runs.map((r) => r.workflow)).toEqual(['guest-confirmed', 'guest-scheduled']);

    // Only the operator's explicit run again starts it a second time.
    const rerun = await bridge.call('POST', `/api/guests/${id}/workflows/Confirmed/run`);
    expect(rerun.status).toBe(200);
    expect(rerun.body.run).toMatchObject({
      trigger: 'run-again',
      status: 'queued',
      workflow: 'guest-confirmed',
    });
    await eventually(() => receivedFor(id, 'guest-confirmed').length === 2);
    const never = await bridge.call('POST', `/api/guests/${id}/workflows/Published/run`);
    expect(never.status).toBe(409);
    expect(never.body.error).toContain('never been at Published');
  });

  it('a guest created at Confirmed records the stage and starts nothing', async () => {
    const id = await newGuest('Émilie Dubois', 'Confirmed');
    const timeline = await bridge.call('GET', `/api/guests/${id}/timeline`);
    expect(timeline.body.stages).toEqual([
      expect.objectContaining({ stage: 'Confirmed', previousStage: null, source: 'created' }),
    ]);
    expect(timeline.body.runs).toEqual([]);
    crm.update('GuestBooking', id, { notes: 'called back' });
    await crm.flushWebhooks();
    await workflowsIdle();
    expect(receivedFor(id)).toEqual([]);
  });
});

describe('durable delivery to the engine', () => {
  it('engine down, then up: the webhook is answered at once and the workflow starts exactly once', async () => {
    const id = await newGuest('Camila Reyes', 'Scheduled');
    await automation.faults.refuseConnections(true);
    try {
      crm.update('GuestBooking', id, { stage: 'Recorded' });
      await crm.flushWebhooks();
      expect(
        crm
          .deliveries()
          .filter((d) => d.event === 'guest-updated')
          .at(-1)?.status,
      ).toBe(200);
      const failing = await eventually(async () => {
        const [run] = await runsOf(id);
        return run && Number(run.attempts) >= 1 && run.message ? run : null;
      });
      expect(failing).toMatchObject({ status: 'queued', workflow: 'guest-recorded' });
      expect(String(failing.message)).toContain('connection refused');
    } finally {
      await automation.faults.refuseConnections(false);
    }
    const started = await eventually(async () => {
      const [run] = await runsOf(id);
      return run?.status === 'started' ? run : null;
    }, 15_000);
    expect(Number(started.attempts)).toBeGreaterThanOrEqual(2);
    await workflowsIdle();
    expect(receivedFor(id).map((r) => r.workflow)).toEqual(['guest-recorded']);
  });

  it('a 5xx is retried; a 404 "not registered" is not, and is shown with n8n’s message and hint', async () => {
    const id = await newGuest('Lena Hoffmann', 'Recorded');
    automation.faults.injectFault({ pathPrefix: '/webhook/guest-published', status: 503, times: 1 });
    crm.update('GuestBooking', id, { stage: 'Published' });
    await crm.flushWebhooks();
    await eventually(() => receivedFor(id, 'guest-published').length === 1, 15_000);

    const other = await newGuest('David Mensah', 'Scheduled');
    automation.setWorkflowActive('guest-recorded', false);
    try {
      crm.update('GuestBooking', other, { stage: 'Recorded' });
      await crm.flushWebhooks();
      const failed = await eventually(async () => {
        const [run] = await runsOf(other);
        return run?.status === 'failed' ? run : null;
      });
      expect(failed).toMatchObject({ attempts: 1, httpStatus: 404 });
      expect(failed.message).toBe('The requested webhook "POST guest-recorded" is not registered.');
      expect(String(failed.hint)).toContain('Execute workflow');
      const activity = await bridge.call('GET', '/api/activity?type=guests.workflow&level=error');
      expect(activity.body.data[0].message).toContain('guest-recorded for guest David Mensah failed');
      expect(activity.body.data[0].message).toContain('Execute workflow');
    } finally {
      automation.setWorkflowActive('guest-recorded', true);
    }
    // The retry action: run again once the workflow is active.
    const retry = await bridge.call('POST', `/api/guests/${other}/workflows/Recorded/run`);
    expect(retry.status).toBe(200);
    await eventually(() => receivedFor(other, 'guest-recorded').length === 1);
    const runs = await runsOf(other);
    expect(runs.map((r) => [r.trigger, r.status])).toEqual([
      ['stage-change', 'failed'],
      ['run-again', 'started'],
    ]);
    const recent = await bridge.call('GET', '/api/guests/workflows?limit=2');
    expect(recent.body.data[0]).toMatchObject({ guestId: other, status: 'started' });
  });
});
