import { afterAll, describe, expect, it } from 'vitest';
import { startSandboxAutomation, startSandboxGateway, toCrmDatetime } from '../../../main/sandbox/index.js';
import type { CatchUpStatus } from '../../../shared/api/health.js';
import { eventually } from '../../support/bridge.js';
import { withCatchUpBridge } from '../../support/catch-up-bridge.js';
import { withPostingPeers } from '../../support/posting-bridge.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';

/**
 * CRM catch-up (DESIGN §6.9) end to end: the bridge is stopped, the sandbox CRM changes records
 * while its deliveries are refused (EspoCRM gives up after four tries), and the bridge that
 * comes back lists what changed by `modifiedAt` and handles each record once.
 */

const SECRET = 'catchup-webhook-secret';
const AUTH = 'X-N8n-Key: n8n-catchup';
/** Each test starts the bridge two or three times and waits for its catch-up. */
const SLOW = 120_000;
const at = (minutesFromNow: number) => toCrmDatetime(new Date(Date.now() + minutesFromNow * 60_000));

const peers = await withPostingPeers({ secret: SECRET });
const { crm, postsvc } = peers;
const gateway = await startSandboxGateway();
const automation = await startSandboxAutomation({ authHeader: AUTH });
afterAll(async () => {
  await gateway.stop();
  await automation.stop();
});

const catchUp = withCatchUpBridge({
  crm,
  secret: SECRET,
  start: (dataDir) =>
    peers.startBridge({
      env: {
        GATEWAY_URL: gateway.url,
        GATEWAY_API_KEY: gateway.apiKey,
        AUTOMATION_URL: automation.url,
        AUTOMATION_AUTH_HEADER: AUTH,
      },
      dataDir,
      areas: ['health', 'webhooks', 'posting', 'guests', 'publishing'],
    }),
  jobKinds: ['catchup.record', 'webhook.item', 'posting.social-post', 'guests.workflow'],
});
const { start, stop, espoGivesUp, caughtUp } = catchUp;

const postsFor = (id: string) => postsvc.posts().filter((p) => p.idempotencyKey?.startsWith(`${id}:`));
const creates = () => postsvc.callCount('/post', 'POST');
const deletes = () => postsvc.callCount('/post', 'DELETE');

function newPost(attrs: Record<string, unknown> = {}) {
  return crm.create('SocialPost', {
    name: 'Catch-up promo',
    content: `Episode ${Math.random().toString(36).slice(2, 8)} is out`,
    platform: 'Microblog',
    status: 'Scheduled',
    scheduledAt: at(24 * 60),
    ...attrs,
  });
}

/** A bridge that has seen this data dir once: its marks are seeded (no replay of history). */
async function knownDataDir() {
  await caughtUp(await start());
}

describe('(a) posts created while the bridge is down', () => {
  it(
    'are each at the provider exactly once after the start, and a second start adds nothing',
    async () => {
      await knownDataDir();
      await stop();
      const before = creates();
      const ids = Array.from({ length: 50 }, (_, i) => newPost({ name: `Down ${i}` }).id);
      await espoGivesUp();
      expect(crm.deliveries().filter((d) => d.outcome === 'gave-up').length).toBeGreaterThan(0);

      const report = await caughtUp(await start());
      for (const id of ids) expect(postsFor(id)).toHaveLength(1);
      expect(creates() - before).toBe(50);
      expect(ids.every((id) => typeof crm.get('SocialPost', id)!.postsvcId === 'string')).toBe(true);
      expect(report).toMatchObject({ status: 'ok', actedOn: 50, errors: 0 });
      expect(report.seen).toBeGreaterThanOrEqual(50);

      await stop();
      crm.setReceiverAway(false);
      await caughtUp(await start());
      await webhooksQuiet(crm);
      expect(creates() - before).toBe(50);
    },
    SLOW,
  );
});

describe('(b) the bridge back inside the retry window', () => {
  it(
    'retried webhooks and catch-up meet on the same records: each acts once',
    async () => {
      await knownDataDir();
      await stop();
      const before = creates();
      const ids = Array.from({ length: 10 }, (_, i) => newPost({ name: `Overlap ${i}` }).id);
      await crm.flushWebhooks(); // first try refused; three left
      crm.setReceiverAway(false);
      const b = await start();
      // EspoCRM's retries and the catch-up run at the same time.
      await Promise.all([webhooksQuiet(crm), caughtUp(b)]);
      await caughtUp(b);
      for (const id of ids) expect(postsFor(id)).toHaveLength(1);
      expect(creates() - before).toBe(10);
      expect(crm.deliveries().some((d) => d.attempt > 1 && d.outcome === 'delivered')).toBe(true);
    },
    SLOW,
  );
});

describe('(c) guests moved while down', () => {
  it(
    'a known guest moved Responded → Confirmed starts its workflow once; one created at Confirmed starts nothing',
    async () => {
      const contentId = crm.create('ContentProduction', {
        name: 'The Studio Hour #14',
        contentType: 'Episode',
        stage: 'Scheduled',
        showName: 'The Studio Hour',
        scheduledDate: '2026-05-12 13:00:00',
      }).id;
      const guest = (name: string, stage: string) =>
        crm.create('GuestBooking', {
          name,
          email: `${name.toLowerCase().replace(/\W/g, '')}@example.org`,
          stage,
          timezone: 'Asia/Tokyo',
          topics: 'tape machines',
          scheduledDate: '2030-05-12 13:00:00',
          contentProductionId: contentId,
        }).id;
      const b = await start();
      await caughtUp(b);
      const known = guest('Known Guest', 'Responded');
      await webhooksQuiet(crm);
      await jobsIdle(b.url, 'webhook.item');
      await stop();
      automation.clearReceived();
      crm.update('GuestBooking', known, { stage: 'Confirmed' });
      const fresh = guest('Fresh Guest', 'Confirmed');
      await espoGivesUp();

      const report = await caughtUp(await start());
      const sentFor = (id: string) =>
        automation.received().filter((r) => JSON.stringify(r.body).includes(id));
      await eventually(() => sentFor(known).length === 1);
      expect(sentFor(fresh)).toEqual([]);
      expect(report.errors).toBe(0);
      // Found by catch-up, and recorded so (issue #22.6): not as a webhook's.
      const timeline = await catchUp.bridge!.call('GET', `/api/guests/${known}/timeline`);
      expect(timeline.body.stages.at(-1)).toMatchObject({
        stage: 'Confirmed',
        previousStage: 'Responded',
        source: 'catch-up',
      });

      await stop();
      crm.setReceiverAway(false);
      await caughtUp(await start());
      expect(sentFor(known)).toHaveLength(1);
      expect(sentFor(fresh)).toEqual([]);
    },
    SLOW,
  );
});

describe('(d) a Queued PlatformPublish missed while down', () => {
  it(
    'publishes once',
    async () => {
      await knownDataDir();
      await stop();
      const cp = crm.create('ContentProduction', { name: 'Ep catch-up', contentType: 'Episode' }).id;
      const { id } = crm.create('PlatformPublish', {
        contentProductionId: cp,
        platform: 'Videosite',
        publishType: 'Upload',
        status: 'Queued',
        title: 'Published after the night',
      });
      await espoGivesUp();
      await caughtUp(await start());
      await eventually(() => crm.get('PlatformPublish', id)!.status === 'Published');
      expect(gateway.publishes().filter((p) => p.body.id === id)).toHaveLength(1);

      await stop();
      crm.setReceiverAway(false);
      await caughtUp(await start());
      await webhooksQuiet(crm);
      expect(gateway.publishes().filter((p) => p.body.id === id)).toHaveLength(1);
    },
    SLOW,
  );
});

describe('(e) late posts', () => {
  it(
    '40 min late is not posted and says why; 5 min late is posted; one the provider held is not re-sent',
    async () => {
      const b = await start();
      await caughtUp(b);
      const held = newPost({ name: 'Held', scheduledAt: toCrmDatetime(new Date(Date.now() + 3_000)) });
      await eventually(() => postsFor(held.id).length === 1);
      await new Promise((resolve) => setTimeout(resolve, 3_500)); // its time passes at the provider
      await webhooksQuiet(crm);
      await stop();

      const tooLate = newPost({ name: 'Too late', scheduledAt: at(-40) });
      const late = newPost({ name: 'A little late', scheduledAt: at(-5) });
      crm.update('SocialPost', held.id, { name: 'Held (renamed while away)' });
      await espoGivesUp();
      await caughtUp(await start());

      expect(postsFor(tooLate.id)).toEqual([]);
      const failed = crm.get('SocialPost', tooLate.id)!;
      expect(failed.status).toBe('Failed');
      expect(String(failed.error)).toMatch(
        /^not posted: 40 min past its time \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\) when the bridge caught up with the CRM after being away/,
      );
      const [sent, ...more] = postsFor(late.id);
      expect(more).toEqual([]);
      expect(sent!.scheduleDate ?? null).toBeNull(); // published at once
      expect(postsFor(held.id)).toHaveLength(1);
    },
    SLOW,
  );
});

describe('(f) tracked posts answering 404', () => {
  async function twentyTracked() {
    const b = await start();
    await caughtUp(b);
    const ids = Array.from({ length: 20 }, (_, i) => newPost({ name: `Tracked ${i}` }).id);
    await webhooksQuiet(crm);
    await jobsIdle(b.url, 'webhook.item');
    for (const id of ids) expect(postsFor(id)).toHaveLength(1);
    await stop();
    return ids;
  }

  it('6 of 20 vanished at once: nothing cancelled, an alarm lists the posts that still go out', async () => {
    const ids = await twentyTracked();
    const before = deletes();
    for (const id of ids.slice(0, 6)) crm.remove('SocialPost', id);
    await espoGivesUp();
    const report = await caughtUp(await start());
    expect(deletes() - before).toBe(0);
    expect(report.alarm).toHaveLength(6);
    expect(report.alarm[0]).toMatch(/goes out on microblog at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    // Named as a person knows the post (its text), not by its CRM and provider ids (issue #30.4).
    expect(report.alarm[0]).toMatch(/^CRM post “.+” goes out/);
    for (const id of ids) expect(report.alarm.join('\n')).not.toContain(id);
    const health = await catchUp.bridge!.call('GET', '/health');
    expect(health.body.status).toBe('degraded');
    for (const id of ids.slice(0, 6)) expect(postsFor(id)[0]!.status).toBe('scheduled');
  });

  it(
    '1 of 20 vanished (the CRM answering as the same user): it is cancelled',
    async () => {
      const ids = await twentyTracked();
      const before = deletes();
      crm.remove('SocialPost', ids[0]!);
      await espoGivesUp();
      const report = await caughtUp(await start());
      expect(report.alarm).toEqual([]);
      expect(deletes() - before).toBe(1);
      expect(postsFor(ids[0]!)[0]!.status).toBe('deleted');
    },
    SLOW,
  );
});

describe('(g) posts changed while down', () => {
  it(
    'one set to Draft is cancelled before its time; one edited is rescheduled with the new text, once',
    async () => {
      const b = await start();
      await caughtUp(b);
      const drafted = newPost({ name: 'To draft' });
      const edited = newPost({ name: 'To edit' });
      await webhooksQuiet(crm);
      await jobsIdle(b.url, 'webhook.item');
      await stop();
      crm.update('SocialPost', drafted.id, { status: 'Draft' });
      crm.update('SocialPost', edited.id, { content: 'New text, written at night' });
      await espoGivesUp();

      await caughtUp(await start());
      expect(postsFor(drafted.id).map((p) => p.status)).toEqual(['deleted']);
      const live = postsFor(edited.id).filter((p) => p.status !== 'deleted');
      expect(live.map((p) => p.post)).toEqual(['New text, written at night']);
      expect(postsFor(edited.id)).toHaveLength(2);

      await stop();
      crm.setReceiverAway(false);
      await caughtUp(await start());
      await webhooksQuiet(crm);
      expect(postsFor(edited.id)).toHaveLength(2);
    },
    SLOW,
  );
});

describe('(i) a catch-up that fails', () => {
  it(
    'is shown in /health with its error and when it retries, and the retry with the CRM back succeeds',
    async () => {
      await knownDataDir();
      await stop();
      crm.setReceiverAway(false);
      await crm.faults.refuseConnections(true);
      try {
        const failed = await caughtUp(await start());
        expect(failed.status).toBe('failed');
        expect(failed.error).toBeTruthy();
        expect(failed.retryAt).toEqual(expect.any(String));
        // §6.2's transient backoff: the first retry about 2 s after the failure, not the 10 min interval.
        expect(Date.parse(failed.retryAt!) - Date.parse(failed.at)).toBeLessThan(60_000);
        expect(Date.parse(failed.retryAt!)).toBeGreaterThan(Date.parse(failed.at));
        expect((await catchUp.bridge!.call('GET', '/health')).body.status).toBe('degraded');
      } finally {
        await crm.faults.refuseConnections(false);
      }
      let again: CatchUpStatus | null = null;
      await eventually(async () => {
        again = (await catchUp.bridge!.call('GET', '/health')).body.lastCatchUp ?? null;
        return again?.status === 'ok';
      }, 90_000);
      expect(again!.retryAt).toBeNull();
      expect(again!.error).toBeNull();
    },
    SLOW,
  );
});

describe('(j) a queued PlatformPublish answering 404', () => {
  it(
    'a publish waiting on its primary, deleted in the CRM while down, is dropped after the identity check',
    async () => {
      const b = await start();
      await caughtUp(b);
      const cp = crm.create('ContentProduction', { name: 'Live vanished', contentType: 'Episode' }).id;
      const { id } = crm.create('PlatformPublish', {
        contentProductionId: cp,
        platform: 'Streamhost',
        publishType: 'Livestream',
        status: 'Queued',
        title: 'Live vanished',
      });
      await eventually(async () => {
        const waiting = (await b.call('GET', '/api/activity?type=publish.waiting')).body.data;
        return waiting.some((e: { data: { id: string } }) => e.data.id === id);
      });
      await webhooksQuiet(crm);
      await stop();
      crm.remove('PlatformPublish', id);
      await espoGivesUp();

      const back = await start();
      await caughtUp(back);
      await eventually(async () => {
        const gone = (await back.call('GET', '/api/activity?type=publish.vanished')).body.data;
        return gone.some((e: { data: { id: string } }) => e.data.id === id);
      });
      expect(gateway.publishes().filter((p) => p.body.id === id)).toEqual([]);
    },
    SLOW,
  );
});
