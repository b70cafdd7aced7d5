import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxAutomation, toCrmDatetime } from '../../../main/sandbox/index.js';
import { eventually, type TestBridge } from '../../support/bridge.js';
import { withCatchUpBridge } from '../../support/catch-up-bridge.js';
import { withPostingPeers } from '../../support/posting-bridge.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';

/**
 * DESIGN §6.9: a guest workflow CRM catch-up finds late (the transition more than 24 h ago, or
 * a pre-recording workflow after the guest's scheduledDate) is held for the operator, never
 * sent late, and no later re-check releases it by itself. The CRM and the bridge share a test
 * clock, moved forward while the bridge is away.
 */

const SECRET = 'late-guests-secret';
const AUTH = 'X-N8n-Key: n8n-late';
const SLOW = 120_000;
const HOUR = 3_600_000;

let shiftMs = 0;
const clock = () => new Date(Date.now() + shiftMs);

const peers = await withPostingPeers({ secret: SECRET, crm: { now: clock } });
const { crm } = peers;
const automation = await startSandboxAutomation({ authHeader: AUTH });
afterAll(() => automation.stop());

const { start, stop, espoGivesUp, caughtUp } = withCatchUpBridge({
  crm,
  secret: SECRET,
  start: (dataDir) =>
    peers.startBridge({
      env: { AUTOMATION_URL: automation.url, AUTOMATION_AUTH_HEADER: AUTH },
      dataDir,
      areas: ['health', 'webhooks', 'guests'],
      now: clock,
    }),
  jobKinds: ['catchup.record', 'webhook.item', 'guests.workflow'],
  now: clock,
});
beforeEach(() => {
  // The CRM is shared: each test starts after everything the one before did (time only moves on).
  shiftMs += 3 * 24 * HOUR;
});

function guest(name: string, stage: string, scheduledDate: Date) {
  const content = crm.create('ContentProduction', {
    name: `${name}'s episode`,
    contentType: 'Episode',
    stage: 'Scheduled',
    showName: 'The Studio Hour',
    scheduledDate: toCrmDatetime(scheduledDate),
  }).id;
  return crm.create('GuestBooking', {
    name,
    email: `${name.toLowerCase().replace(/\W/g, '')}@example.org`,
    stage,
    timezone: 'Europe/Berlin',
    topics: 'tape machines',
    scheduledDate: toCrmDatetime(scheduledDate),
    contentProductionId: content,
  }).id;
}

const sentFor = (id: string) => automation.received().filter((r) => JSON.stringify(r.body).includes(id));

interface HoldView {
  guestId: string;
  stage: string;
  status: string;
  reason: string;
  note: string | null;
}
async function holdsOf(b: TestBridge, guestId: string): Promise<HoldView[]> {
  const answer = await b.call('GET', '/api/guests/holds');
  return (answer.body.data as HoldView[]).filter((hold) => hold.guestId === guestId);
}

describe('late guest workflows found by catch-up', () => {
  it(
    'a transition found 25 h late is held, not started, and neither a re-check nor a new catch-up releases it',
    async () => {
      const b = await start();
      await caughtUp(b);
      const late = guest('Late Guest', 'Responded', new Date(clock().getTime() + 14 * 24 * HOUR));
      await webhooksQuiet(crm);
      await jobsIdle(b.url, 'webhook.item');
      await stop();
      automation.clearReceived();
      crm.update('GuestBooking', late, { stage: 'Confirmed' });
      await espoGivesUp();
      shiftMs += 25 * HOUR; // the bridge stays closed for a day

      const back = await start();
      const report = await caughtUp(back);
      expect(report.errors).toBe(0);
      expect(sentFor(late)).toEqual([]);
      const [hold, ...others] = await holdsOf(back, late);
      expect(others).toEqual([]);
      expect(hold).toMatchObject({ stage: 'Confirmed', status: 'waiting', reason: 'late' });
      expect(hold!.note).toMatch(/25 h after/);

      // The operator's "check again" does not release it, nor does a CRM event for the guest.
      const check = await back.call('POST', `/api/guests/${late}/holds/Confirmed/check`);
      expect(check.status).toBe(200);
      expect(check.body.run).toBeNull();
      expect(check.body.hold.status).toBe('waiting');
      crm.update('GuestBooking', late, { topics: 'tape machines and reverb' });
      await webhooksQuiet(crm);
      await jobsIdle(back.url, 'webhook.item');
      await stop();
      crm.update('GuestBooking', late, { topics: 'reverb' });
      await espoGivesUp();
      const again = await start();
      await caughtUp(again);
      expect(sentFor(late)).toEqual([]);
      expect((await holdsOf(again, late))[0]).toMatchObject({ status: 'waiting', reason: 'late' });

      // The operator decides: send anyway starts it once.
      const sent = await again.call('POST', `/api/guests/${late}/holds/Confirmed/send-anyway`);
      expect(sent.status).toBe(200);
      await jobsIdle(again.url, 'guests.workflow');
      await eventually(() => sentFor(late).length === 1);
    },
    SLOW,
  );

  it(
    "a Confirmed workflow found after the guest's scheduledDate is held; one found in time starts",
    async () => {
      const b = await start();
      await caughtUp(b);
      const past = guest('Past Guest', 'Responded', new Date(clock().getTime() - 2 * HOUR));
      const future = guest('Future Guest', 'Responded', new Date(clock().getTime() + 7 * 24 * HOUR));
      await webhooksQuiet(crm);
      await jobsIdle(b.url, 'webhook.item');
      await stop();
      automation.clearReceived();
      crm.update('GuestBooking', past, { stage: 'Confirmed' });
      crm.update('GuestBooking', future, { stage: 'Confirmed' });
      await espoGivesUp();

      const back = await start();
      await caughtUp(back);
      await eventually(() => sentFor(future).length === 1);
      expect(sentFor(past)).toEqual([]);
      const [hold] = await holdsOf(back, past);
      expect(hold).toMatchObject({ stage: 'Confirmed', status: 'waiting', reason: 'late' });
      expect(hold!.note).toMatch(/scheduled/);
      expect(await holdsOf(back, future)).toEqual([]);
    },
    SLOW,
  );
});

describe('ContentProduction catch-up', () => {
  it(
    "a known content moved while down is recorded once against its last known stage, as 'catch-up'",
    async () => {
      const b = await start();
      await caughtUp(b);
      const guestId = guest('Content Guest', 'Responded', new Date(clock().getTime() + 14 * 24 * HOUR));
      await webhooksQuiet(crm);
      await jobsIdle(b.url, 'webhook.item');
      const contentId = crm.get('GuestBooking', guestId)!.contentProductionId as string;
      await stop();
      crm.update('ContentProduction', contentId, { stage: 'Editing' });
      await espoGivesUp();

      const contentStages = async (bridgeNow: TestBridge) =>
        (await bridgeNow.call('GET', `/api/guests/${guestId}/timeline`)).body.contentStages as {
          stage: string;
          previousStage: string | null;
          source: string;
        }[];
      const back = await start();
      await caughtUp(back);
      const after = await contentStages(back);
      expect(after.at(-1)).toMatchObject({
        stage: 'Editing',
        previousStage: 'Scheduled',
        source: 'catch-up',
      });

      await stop();
      crm.setReceiverAway(false);
      const again = await start();
      await caughtUp(again);
      expect(await contentStages(again)).toHaveLength(after.length);
    },
    SLOW,
  );
});

describe('held guests answering 404', () => {
  it(
    'a held guest deleted in the CRM while down has its hold ended, after the identity check',
    async () => {
      const b = await start();
      await caughtUp(b);
      const past = guest('Deleted Guest', 'Responded', new Date(clock().getTime() - 2 * HOUR));
      await webhooksQuiet(crm);
      await jobsIdle(b.url, 'webhook.item');
      await stop();
      crm.update('GuestBooking', past, { stage: 'Confirmed' });
      await espoGivesUp();
      const held = await start();
      await caughtUp(held);
      expect(await holdsOf(held, past)).toHaveLength(1);
      await stop();
      crm.remove('GuestBooking', past);
      await espoGivesUp();

      const back = await start();
      await caughtUp(back);
      await eventually(async () => (await holdsOf(back, past)).length === 0);
      expect(sentFor(past)).toEqual([]);
    },
    SLOW,
  );
});
