import {
  phpJsonEncode,
  startSandboxCrm,
  startSandboxPostsvc,
  toCrmDatetime,
} from '../../main/sandbox/index.js';
import { signEspoBody } from '../../main/http/espo-signature.js';
import { startBuiltBridge } from './built-bridge.js';
import { startBareExpress } from './bare-express.js';
import { comparedTo, loadFigures, runLoad } from './load.js';
import type { Bench, BenchResult } from './report.js';
import { crmAndPostsvcEnv } from '../support/peers-env.js';

// The business plan allows 500 posts a UTC day (spec §8): warm-up and run stay under it.
const REQUESTS = Math.min(Number(process.env.BENCH_POSTING_REQUESTS ?? 420), 450);
const WARMUP = 40;
const CONCURRENCY = 16;

/**
 * The social-created webhook path through the real bridge: signature, delivery log, durable
 * job, read-back of the SocialPost from the sandbox CRM, ledger claim and quota check, the
 * create at the sandbox provider (answering at once), the postsvcId write-back, the answer.
 * Against a bare Express JSON handler in the same run. The client's self-throttle (5/s by
 * default) is lifted: this measures the bridge, not the politeness towards the provider.
 */
export const postingBench: Bench = {
  name: 'posting',
  async run(): Promise<BenchResult[]> {
    const secret = 'bench-posting-secret';
    const crm = await startSandboxCrm({ warn: () => undefined });
    const postsvc = await startSandboxPostsvc({ plan: 'business', rateLimitPerMinute: 1_000_000 });
    const bridge = await startBuiltBridge(crmAndPostsvcEnv(crm, postsvc, { secret }), {
      logLevel: 'warn',
      areas: ['health', 'webhooks', 'posting'],
      tuning: { peers: { postsvc: { perSecond: 100_000 } } },
    });
    const bare = await startBareExpress();
    try {
      // One Scheduled SocialPost per request, spread a day apart per platform so no spacing rule bites.
      const platforms = ['Microblog', 'Socialnet', 'Photogram', 'Professional'] as const;
      const bodies: string[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const record = crm.create('SocialPost', {
          name: `Bench post ${i}`,
          content: `Bench post ${i}: new episode out now https://studio.com/ep/${i}`,
          platform: platforms[i % platforms.length],
          status: 'Scheduled',
          scheduledAt: toCrmDatetime(new Date(Date.now() + (24 + 3 * i) * 3_600_000)),
          mediaUrl: `https://cdn.studio.com/ep/${i}.png`,
        });
        bodies.push(phpJsonEncode([record]));
      }
      const headers = (offset: number) => (i: number) => ({
        signature: signEspoBody(bodies[offset + i]!, secret, 'wh-bench-social'),
      });
      const body = (offset: number) => (i: number) => bodies[offset + i]!;

      await runLoad({ url: bare.url, body: bodies[0]!, requests: 300, concurrency: CONCURRENCY });
      const warm = await runLoad({
        url: `${bridge.url}/webhooks/social-created`,
        headers: headers(0),
        body: body(0),
        requests: WARMUP,
        concurrency: CONCURRENCY,
      });
      const baseline = await runLoad({
        url: bare.url,
        body: bodies[0]!,
        requests: REQUESTS,
        concurrency: CONCURRENCY,
      });
      const created = await runLoad({
        url: `${bridge.url}/webhooks/social-created`,
        headers: headers(WARMUP),
        body: body(WARMUP),
        requests: REQUESTS,
        concurrency: CONCURRENCY,
      });
      const posts = postsvc.posts().length;
      return [
        { name: 'bare express POST (baseline)', figures: loadFigures(baseline) },
        {
          name: 'bridge POST /webhooks/social-created',
          figures: comparedTo(created, baseline),
          note: `${REQUESTS} signed deliveries, ${CONCURRENCY} connections; provider posts ${posts} of ${WARMUP + REQUESTS} (warm-up errors ${warm.errors})`,
        },
      ];
    } finally {
      await bare.stop();
      await bridge.close();
      await crm.stop();
      await postsvc.stop();
    }
  },
};
