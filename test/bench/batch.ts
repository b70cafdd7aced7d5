import { signEspoBody } from '../../main/http/espo-signature.js';
import {
  phpJsonEncode,
  startSandboxCrm,
  startSandboxPostsvc,
  toCrmDatetime,
} from '../../main/sandbox/index.js';
import { callBridge, eventually } from '../support/bridge.js';
import { startBuiltBridge } from './built-bridge.js';
import type { Bench, BenchResult } from './report.js';
import { crmAndPostsvcEnv } from '../support/peers-env.js';

const ITEMS = 50;
const PROVIDER_DELAY_MS = 500;

/**
 * Issue #13.2: one EspoCRM delivery of 50 new Scheduled SocialPosts (business plan) while the
 * provider takes 500 ms per post. The bridge answers within its 8 s budget with what finished
 * (202, the rest continues in the queue), and every record ends with exactly one provider post.
 * The bridge runs with its default tuning (job slots, the provider client's own pacing).
 */
export const batchBench: Bench = {
  name: 'batch',
  async run(): Promise<BenchResult[]> {
    const secret = 'bench-batch-secret';
    const crm = await startSandboxCrm({ warn: () => undefined });
    const postsvc = await startSandboxPostsvc({ plan: 'business', rateLimitPerMinute: 1_000_000 });
    const bridge = await startBuiltBridge(crmAndPostsvcEnv(crm, postsvc, { secret }), {
      logLevel: 'warn',
      areas: ['health', 'webhooks', 'posting'],
    });
    try {
      const platforms = ['Microblog', 'Socialnet', 'Photogram', 'Professional'] as const;
      const records = Array.from({ length: ITEMS }, (_, i) =>
        crm.create('SocialPost', {
          name: `Batch post ${i}`,
          content: `Batch post ${i}: the new episode is out https://studio.com/ep/${i}`,
          platform: platforms[i % platforms.length],
          status: 'Scheduled',
          // A day apart per platform: no spacing rule bites.
          scheduledAt: toCrmDatetime(new Date(Date.now() + (24 + 24 * i) * 3_600_000)),
          mediaUrl: `https://cdn.studio.com/ep/${i}.png`,
        }),
      );
      postsvc.faults.injectFault({
        method: 'POST',
        pathPrefix: '/post',
        delayMs: PROVIDER_DELAY_MS,
        times: 10 * ITEMS,
      });
      const body = phpJsonEncode(records);
      const started = performance.now();
      const answer = await callBridge(bridge.url, 'POST', '/webhooks/social-created', {
        rawBody: body,
        headers: {
          signature: signEspoBody(body, secret, 'wh-bench-batch'),
          'content-type': 'application/json',
        },
        key: null,
      });
      const answeredMs = performance.now() - started;
      const results = (answer.body?.results ?? []) as { queued?: boolean; success?: boolean }[];
      const finishedInAnswer = results.filter((r) => !r.queued && r.success).length;

      const ids = new Set(records.map((r) => r.id));
      const linked = () =>
        records.map((r) => crm.get('SocialPost', r.id)?.postsvcId).filter((v): v is string => Boolean(v));
      await eventually(() => linked().length === ITEMS, 120_000);
      const allDoneMs = performance.now() - started;
      const posts = postsvc.posts();
      const postIds = new Set(posts.map((p) => p.id));
      const recordPosts = linked();
      const exactlyOne =
        posts.length === ITEMS &&
        new Set(recordPosts).size === ITEMS &&
        recordPosts.every((id) => postIds.has(id)) &&
        ids.size === ITEMS;
      return [
        {
          name: `${ITEMS}-item batch, provider ${PROVIDER_DELAY_MS} ms per post`,
          figures: {
            'answered ms': Math.round(answeredMs),
            status: answer.status,
            'done in answer': finishedInAnswer,
            'all done ms': Math.round(allDoneMs),
            'provider posts': posts.length,
          },
          note: `target: answered <= 8000 ms, ${ITEMS} provider posts, one per record (exactly one each: ${exactlyOne})`,
        },
      ];
    } finally {
      await bridge.close();
      await crm.stop();
      await postsvc.stop();
    }
  },
};
