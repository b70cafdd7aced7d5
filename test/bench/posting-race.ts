import { startSandboxCrm, startSandboxPostsvc } from '../../main/sandbox/index.js';
import { startBuiltBridge } from './built-bridge.js';
import type { Bench, BenchResult } from './report.js';
import { crmAndPostsvcEnv } from '../support/peers-env.js';
import { webhookIdsFor } from '../support/bridge.js';
import { webhooksQuiet } from '../support/settle.js';
import { answerFigures, createRaceRecords, providerTally, runRace } from '../support/posting-race.js';

const ROUNDS = Number(process.env.BENCH_RACE_ROUNDS ?? 200);
const RECORDS = 8;

/**
 * Webhook answer times under the posting race (issue #36.5): 200 rounds of racing reschedules,
 * cancels, post-nows, CRM edits and redeliveries on 8 SocialPosts, with the CRM's catch-up every
 * minute, through the built bridge; then what the provider holds (0 records with two live posts,
 * 0 published twice). Target: p95 ≤ 2 s on this machine (EspoCRM gives up at 10 s).
 */
export const postingRaceBench: Bench = {
  name: 'posting-race',
  async run(): Promise<BenchResult[]> {
    const secret = 'bench-race-secret';
    const crm = await startSandboxCrm({ warn: () => undefined });
    const postsvc = await startSandboxPostsvc({ plan: 'business', rateLimitPerMinute: 1_000_000 });
    const bridge = await startBuiltBridge(
      { ...crmAndPostsvcEnv(crm, postsvc, { secret }), CRM_CATCHUP_MINUTES: '1' },
      { logLevel: 'warn', areas: ['health', 'webhooks', 'posting'] },
    );
    crm.setWebhookTarget({
      baseUrl: bridge.url,
      secret,
      webhookIds: webhookIdsFor('wh-bench-race'),
      deliveryDelayMs: 20,
    });
    try {
      const ids = createRaceRecords(crm, RECORDS, 'Bench race');
      await webhooksQuiet(crm);
      const started = Date.now();
      const race = await runRace(
        {
          bridgeUrl: bridge.url,
          crm,
          postsvc,
          webhookBase: 'wh-bench-race',
          secret,
          records: RECORDS,
          rounds: ROUNDS,
          deadline: started + 10 * 60_000,
        },
        ids,
      );
      const seconds = (Date.now() - started) / 1000;
      await webhooksQuiet(crm, 120_000);
      const tally = providerTally(postsvc, ids);
      return [
        {
          name: 'webhook answers under the posting race',
          figures: {
            ...answerFigures(race.answerMs),
            rounds: race.rounds,
            seconds: Math.round(seconds),
            'two live': tally.twoLive.length,
            'published twice': tally.publishedTwice.length,
          },
          note: `${RECORDS} records; actions ${JSON.stringify(race.actions)}; route 5xx ${race.routeErrors.length}`,
        },
      ];
    } finally {
      crm.clearWebhookTarget();
      await bridge.close();
      await crm.stop();
      await postsvc.stop();
    }
  },
};
