import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startSandboxAutomation,
  startSandboxCrm,
  type SandboxAutomation,
  type SandboxCrm,
} from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';

/**
 * DESIGN §6.8: a stage workflow whose email would render with empty variables is held on the
 * guest ("waiting for: date, time"), never started; it starts once when the CRM fills the
 * values, or when the operator sends it anyway.
 */
const SECRET = 'guests-holds-secret';

let crm: SandboxCrm;
let automation: SandboxAutomation;
let bridge: TestBridge;
let contentId: string;
let emailSeq = 0;

beforeAll(async () => {
  crm = await startSandboxCrm({ warn: () => undefined });
  automation = await startSandboxAutomation();
  bridge = await startTestBridge({
    CRM_URL: crm.url,
    CRM_API_KEY: crm.apiKey,
    CRM_WEBHOOK_SECRETS: SECRET,
    AUTOMATION_URL: automation.url,
  });
  // The test decides when the CRM delivers (flushWebhooks).
  crm.setWebhookTarget({ baseUrl: bridge.url, secret: SECRET, deliveryDelayMs: 60_000 });
  contentId = crm.create('ContentProduction', {
    name: 'The Studio Hour #30: Small Rooms',
    stage: 'Planning',
    showName: 'The Studio Hour',
    platforms: ['Videosite'],
  }).id;
});
afterAll(async () => {
  await bridge?.close();
  await crm?.stop();
  await automation?.stop();
});
beforeEach(() => automation.clearReceived());

/** A guest the bridge has seen created, linked to content, with no recording date yet. */
async function undatedGuest(name: string, attrs: Record<string, unknown> = {}) {
  const guest = crm.create('GuestBooking', {
    name,
    email: `held${++emailSeq}@example.org`,
    stage: 'Responded',
    timezone: 'Europe/Berlin',
    topics: 'room acoustics',
    contentProductionId: contentId,
    ...attrs,
  });
  await crm.flushWebhooks();
  return guest.id;
}

const receivedFor = (guestId: string) =>
  automation.received().filter((run) => (run.body as { guest?: { id?: string } }).guest?.id === guestId);

/** Every webhook delivered and answered, every workflow job done: what will be sent has been sent. */
async function settled() {
  await webhooksQuiet(crm);
  await jobsIdle(bridge.url, 'guests.workflow');
}

async function guestSummary(id: string) {
  const response = await bridge.call('GET', '/api/guests');
  expect(response.status).toBe(200);
  return (response.body.data as Array<Record<string, any>>).find((g) => g.id === id); // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function holdActivity(guestId: string) {
  const response = await bridge.call('GET', '/api/activity?type=guests.hold&limit=50');
  expect(response.status).toBe(200);
  return (
    response.body.data as Array<{ message: string; data: { guestId: string; outcome: string } }>
  ).filter((row) => row.data.guestId === guestId);
}

describe('a workflow whose email would render empty values is held (DESIGN §6.8)', () => {
  it('dashboard move: held, waiting for date and time, nothing sent to n8n; shown on the guest and in the hold list', async () => {
    const id = await undatedGuest('Greta Lind');
    const moved = await bridge.call('POST', `/api/guests/${id}/stage`, { body: { stage: 'Confirmed' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      changed: true,
      run: null,
      hold: {
        guestId: id,
        stage: 'Confirmed',
        workflow: 'guest-confirmed',
        moment: 'confirmation',
        missing: ['date', 'time'],
        status: 'waiting',
      },
    });
    await settled();
    expect(receivedFor(id)).toEqual([]);

    const summary = await guestSummary(id);
    expect(summary?.hold).toMatchObject({ stage: 'Confirmed', missing: ['date', 'time'], status: 'waiting' });
    expect(summary?.workflows).toEqual([]);
    const holds = await bridge.call('GET', '/api/guests/holds');
    expect(holds.status).toBe(200);
    expect(holds.body.data).toContainEqual(
      expect.objectContaining({ guestId: id, guestName: 'Greta Lind', missing: ['date', 'time'] }),
    );
    const [held] = await holdActivity(id);
    expect(held?.data.outcome).toBe('held');
    expect(held?.message).toBe('Guest Greta Lind: guest-confirmed held, waiting for: date, time');

    // "Run again" cannot go around the hold: it would send the broken email and later a second one.
    const rerun = await bridge.call('POST', `/api/guests/${id}/workflows/Confirmed/run`);
    expect(rerun.status).toBe(409);
    expect(rerun.body.error).toContain('waiting for: date, time');
  });

  it('a CRM update that fills the date starts the workflow exactly once, with the complete email', async () => {
    const id = await undatedGuest('Henrik Aalto');
    await bridge.call('POST', `/api/guests/${id}/stage`, { body: { stage: 'Confirmed' } });
    await settled();
    expect(receivedFor(id)).toEqual([]);

    crm.update('GuestBooking', id, { scheduledDate: '2030-03-05 14:00:00' });
    await crm.flushWebhooks();
    const [run] = await eventually(() => (receivedFor(id).length > 0 ? receivedFor(id) : null));
    expect(run?.workflow).toBe('guest-confirmed');
    const email = (run?.body as { email: { subject: string; body: string; missingValues: string[] } }).email;
    expect(email.subject).toBe('Confirmed: The Studio Hour on Tuesday 5 March 2030');
    expect(email.body).toContain('Time: 15:00 (Europe/Berlin)');
    expect(email.missingValues).toEqual([]);

    // Later events for the guest, and the operator asking again, start nothing more.
    crm.update('GuestBooking', id, { notes: 'sent the calendar invite' });
    await crm.flushWebhooks();
    const check = await bridge.call('POST', `/api/guests/${id}/holds/Confirmed/check`);
    expect(check.status).toBe(200);
    expect(check.body.hold).toMatchObject({ status: 'released' });
    await settled();
    expect(receivedFor(id)).toHaveLength(1);
    expect((await guestSummary(id))?.hold).toBeNull();
    expect((await holdActivity(id)).map((row) => row.data.outcome)).toEqual(['released', 'held']);
  });

  it('a CRM webhook move is held too; "send anyway" starts it once and is recorded in activity', async () => {
    const id = await undatedGuest('Ines Moreau');
    crm.update('GuestBooking', id, { stage: 'Confirmed' });
    await crm.flushWebhooks();
    await settled();
    expect(receivedFor(id)).toEqual([]);
    expect((await guestSummary(id))?.hold).toMatchObject({ stage: 'Confirmed', missing: ['date', 'time'] });

    const sent = await bridge.call('POST', `/api/guests/${id}/holds/Confirmed/send-anyway`);
    expect(sent.status).toBe(200);
    expect(sent.body.hold).toMatchObject({ status: 'sent-anyway', missing: ['date', 'time'] });
    expect(sent.body.run).toMatchObject({ workflow: 'guest-confirmed', status: 'queued' });
    await eventually(() => receivedFor(id).length === 1);
    const [anyway] = await holdActivity(id);
    expect(anyway?.data.outcome).toBe('sent-anyway');
    expect(anyway?.message).toBe(
      'Guest Ines Moreau: guest-confirmed sent anyway by the operator, without: date, time',
    );

    // Sending again, or the date arriving afterwards, starts nothing more.
    const again = await bridge.call('POST', `/api/guests/${id}/holds/Confirmed/send-anyway`);
    expect(again.status).toBe(409);
    crm.update('GuestBooking', id, { scheduledDate: '2030-03-06 09:00:00' });
    await crm.flushWebhooks();
    await settled();
    expect(receivedFor(id)).toHaveLength(1);
  });

  it('an update of the linked content re-checks the hold: a fallback that is empty is missing until the content fills it', async () => {
    const templates = await bridge.call('GET', '/guests/templates');
    const bare = crm.create('ContentProduction', { name: 'Untitled show episode', stage: 'Planning' }).id;
    await crm.flushWebhooks();
    // No show name on the content and none in the template settings: {{show}} would render empty.
    await bridge.call('PUT', '/guests/templates', { body: { settings: { show: '' } } });
    try {
      const id = await undatedGuest('Jun Park', {
        contentProductionId: bare,
        scheduledDate: '2030-04-01 10:00:00',
      });
      const moved = await bridge.call('POST', `/api/guests/${id}/stage`, { body: { stage: 'Confirmed' } });
      expect(moved.body.hold).toMatchObject({ missing: ['show'], status: 'waiting' });
      await settled();
      expect(receivedFor(id)).toEqual([]);

      crm.update('ContentProduction', bare, { showName: 'Night Shift' });
      await crm.flushWebhooks();
      const [run] = await eventually(() => (receivedFor(id).length > 0 ? receivedFor(id) : null));
      expect((run?.body as { email: { subject: string } }).email.subject).toBe(
        'Confirmed: Night Shift on Monday 1 April 2030',
      );
      await settled();
      expect(receivedFor(id)).toHaveLength(1);
    } finally {
      await bridge.call('PUT', '/guests/templates', { body: { settings: templates.body.settings } });
    }
  });

  it('the operator re-checks a hold: still missing stays held; filled starts once, and the late webhook adds nothing', async () => {
    const id = await undatedGuest('Kofi Asante');
    await bridge.call('POST', `/api/guests/${id}/stage`, { body: { stage: 'Confirmed' } });
    const still = await bridge.call('POST', `/api/guests/${id}/holds/Confirmed/check`);
    expect(still.status).toBe(200);
    expect(still.body).toMatchObject({ hold: { status: 'waiting', missing: ['date', 'time'] }, run: null });

    // The date is set in the CRM; its webhook has not arrived yet (EspoCRM delivers minutes later).
    crm.update('GuestBooking', id, { scheduledDate: '2030-05-02 16:30:00' });
    const released = await bridge.call('POST', `/api/guests/${id}/holds/Confirmed/check`);
    expect(released.body).toMatchObject({
      hold: { status: 'released' },
      run: { workflow: 'guest-confirmed', trigger: 'stage-change' },
    });
    await crm.flushWebhooks();
    await settled();
    expect(receivedFor(id)).toHaveLength(1);

    const none = await bridge.call('POST', `/api/guests/${id}/holds/Recorded/check`);
    expect(none.status).toBe(404);
    expect(none.body.error).toContain('no held Recorded workflow');
  });

  it('a guest that moves on while held: the held email is never sent, the next stage starts its own', async () => {
    const id = await undatedGuest('Mira Sato');
    await bridge.call('POST', `/api/guests/${id}/stage`, { body: { stage: 'Confirmed' } });
    crm.update('GuestBooking', id, { stage: 'Scheduled', scheduledDate: '2030-06-01 12:00:00' });
    await crm.flushWebhooks();
    await settled();
    expect(receivedFor(id).map((run) => run.workflow)).toEqual(['guest-scheduled']);
    expect((await guestSummary(id))?.hold).toBeNull();
    const [superseded] = await holdActivity(id);
    expect(superseded?.data.outcome).toBe('superseded');
    expect(superseded?.message).toContain('the guest moved on to Scheduled');
    const late = await bridge.call('POST', `/api/guests/${id}/holds/Confirmed/send-anyway`);
    expect(late.status).toBe(409);
    expect(late.body.error).toContain('moved on to another stage');
  });

  it('a stage without an email (Scheduled) is never held', async () => {
    const id = await undatedGuest('Lara Novak', { stage: 'Confirmed' });
    const moved = await bridge.call('POST', `/api/guests/${id}/stage`, { body: { stage: 'Scheduled' } });
    expect(moved.body).toMatchObject({ hold: null, run: { workflow: 'guest-scheduled' } });
    await eventually(() => receivedFor(id).length === 1);
  });
});
