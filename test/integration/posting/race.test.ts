import { afterAll, expect, it } from 'vitest';
import { toCrmDatetime } from '../../../main/sandbox/index.js';
import { eventually, webhookIdsFor } from '../../support/bridge.js';
import { ledgerMoveOf } from '../../support/ledger.js';
import { crmAndPostsvcEnv } from '../../support/peers-env.js';
import { withPostingPeers } from '../../support/posting-bridge.js';
import { createRaceRecords, providerTally, runRace } from '../../support/posting-race.js';
import { spawnBridge, type BridgeProcess } from '../../support/process.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * Issue #36.5: "never twice" under racing. Rounds of racing moves (CRM and dashboard), edits,
 * Drafts, re-Schedules, cancels, post-nows and redeliveries on several SocialPosts while the
 * bridge's catch-up runs every 2 s; then the same data dir in a bridge process that is killed
 * (kill -9) between a PATCH the provider applied and the commit of its new time, and started
 * again. At the end no record has two posts live at the provider and none was published twice.
 */

const SECRET = 'posting-race-secret';
const WEBHOOK_BASE = 'wh-posting-race';
const RECORDS = 6;
const data = tempDir('posting-race');
const { crm, postsvc, startBridge } = await withPostingPeers({
  secret: SECRET,
  postsvc: { rateLimitPerMinute: 1_000_000 },
});
const processes: BridgeProcess[] = [];

afterAll(() => {
  crm.clearWebhookTarget();
  for (const bridge of processes) if (bridge.child.exitCode === null) bridge.child.kill('SIGKILL');
  data.remove();
});

const target = (url: string) =>
  crm.setWebhookTarget({
    baseUrl: url,
    secret: SECRET,
    webhookIds: webhookIdsFor(WEBHOOK_BASE),
    deliveryDelayMs: 20,
  });

const ledgerRow = (postsvcId: string) => ledgerMoveOf(data.path, postsvcId);

it('racing moves, edits, cancels, post-nows, redeliveries and catch-up, and a kill -9 mid-move: never two live posts, never published twice', async () => {
  const started = Date.now();
  // 1. The race, with catch-up every 2 s.
  const bridge = await startBridge({
    dataDir: data.path,
    tuning: { webhooks: { catchUpEveryMs: 2_000 }, peers: { postsvc: { perSecond: 100_000 } } },
  });
  target(bridge.url);
  const ids = createRaceRecords(crm, RECORDS, 'Race');
  await webhooksQuiet(crm);
  const race = await runRace(
    {
      bridgeUrl: bridge.url,
      crm,
      postsvc,
      webhookBase: WEBHOOK_BASE,
      secret: SECRET,
      records: RECORDS,
      rounds: 60,
      deadline: started + 25_000,
    },
    ids,
  );
  expect(race.rounds).toBeGreaterThan(5);
  expect(race.routeErrors).toEqual([]);
  await webhooksQuiet(crm);
  await jobsIdle(bridge.url, 'posting.social-post');
  await bridge.stop();

  // 2. The same data dir in a bridge process, killed between a PATCH the provider applied and its commit.
  const env = { ...crmAndPostsvcEnv(crm, postsvc, { secret: SECRET }), BRIDGE_DATA_DIR: data.path };
  const first = await spawnBridge(env);
  processes.push(first);
  target(first.url);
  const moved = crm.create('SocialPost', {
    name: 'Killed mid-move',
    content: 'Killed mid-move: the new episode https://studio.example/killed',
    platform: 'Microblog',
    status: 'Scheduled',
    scheduledAt: toCrmDatetime(new Date(Date.now() + 40 * 3_600_000)),
  });
  const postsvcId = await eventually(
    () => crm.get('SocialPost', moved.id)?.postsvcId as string | undefined,
    15_000,
  );
  await webhooksQuiet(crm);
  const creates = postsvc.callCount('/post', 'POST');
  const to = new Date(Date.now() + 45 * 3_600_000);
  to.setUTCSeconds(0, 0);
  // The provider applies the move and never answers: the bridge holds `moving_to`, not the new time.
  postsvc.faults.injectFault({ method: 'PATCH', pathPrefix: '/post', hang: true, times: 1 });
  crm.update('SocialPost', moved.id, { scheduledAt: toCrmDatetime(to) });
  await crm.flushWebhooks();
  await eventually(
    () => postsvc.posts().find((post) => post.id === postsvcId)?.scheduleDate === to.toISOString(),
  );
  expect(ledgerRow(postsvcId)).toMatchObject({ moving_to: to.toISOString() });
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');

  const second = await spawnBridge(env);
  processes.push(second);
  target(second.url);
  await eventually(() => ledgerRow(postsvcId)?.moving_to === null, 20_000);
  expect(ledgerRow(postsvcId)).toEqual({ schedule_date: to.toISOString(), moving_to: null });
  await webhooksQuiet(crm);
  await jobsIdle(second.url, 'posting.social-post');
  expect(postsvc.callCount('/post', 'POST')).toBe(creates);
  expect(postsvc.posts().filter((post) => post.idempotencyKey?.startsWith(`${moved.id}:`))).toEqual([
    expect.objectContaining({ id: postsvcId, status: 'scheduled', scheduleDate: to.toISOString() }),
  ]);
  second.child.kill('SIGTERM');
  await second.exited;

  // 3. What the provider holds, for every record.
  const tally = providerTally(postsvc, [...ids, moved.id]);
  expect(tally).toEqual({ twoLive: [], publishedTwice: [] });
}, 60_000);
