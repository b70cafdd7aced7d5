import { signEspoBody } from '../../main/http/espo-signature.js';
import { startTestBridge, TEST_API_KEY } from '../support/bridge.js';
import { startBareExpress } from './bare-express.js';
import { comparedTo, loadFigures, runLoad } from './load.js';
import type { Bench, BenchResult } from './report.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = 16;

/**
 * POST /webhooks/test through the whole bridge (auth, body parse, delivery log, durable job,
 * wait for it, answer) against a bare Express JSON handler, same machine, same run.
 * A signed CRM receiver (guest-created, array body, idempotency key per item) is measured too.
 */
export const webhookBench: Bench = {
  name: 'webhook',
  async run(): Promise<BenchResult[]> {
    const secret = 'bench-secret';
    const bridge = await startTestBridge({ CRM_WEBHOOK_SECRETS: secret }, { logLevel: 'warn' });
    const bare = await startBareExpress();
    try {
      const body = JSON.stringify({ test: true, source: 'bench' });
      // Warm both up so JIT and SQLite caches are comparable.
      await runLoad({ url: bare.url, body, requests: 300, concurrency: CONCURRENCY });
      await runLoad({
        url: `${bridge.url}/webhooks/test`,
        headers: { 'x-api-key': TEST_API_KEY },
        body,
        requests: 300,
        concurrency: CONCURRENCY,
      });

      const baseline = await runLoad({ url: bare.url, body, requests: REQUESTS, concurrency: CONCURRENCY });
      const testHook = await runLoad({
        url: `${bridge.url}/webhooks/test`,
        headers: { 'x-api-key': TEST_API_KEY },
        body,
        requests: REQUESTS,
        concurrency: CONCURRENCY,
      });
      const guestBody = (i: number) =>
        JSON.stringify([
          {
            id: `g${String(i).padStart(16, '0')}`,
            name: `Guest ${i}`,
            stage: 'Outreach',
            email: `g${i}\\/x@example.com`,
          },
        ]);
      const guests = await runLoad({
        url: `${bridge.url}/webhooks/guest-created`,
        headers: (i) => ({ signature: signEspoBody(guestBody(i), secret, 'wh-bench') }),
        body: guestBody,
        requests: REQUESTS,
        concurrency: CONCURRENCY,
      });
      return [
        { name: 'bare express POST (baseline)', figures: loadFigures(baseline) },
        {
          name: 'bridge POST /webhooks/test',
          figures: comparedTo(testHook, baseline),
          note: `${REQUESTS} requests, ${CONCURRENCY} connections`,
        },
        {
          name: 'bridge POST /webhooks/guest-created (signed)',
          figures: comparedTo(guests, baseline),
        },
      ];
    } finally {
      await bare.stop();
      await bridge.close();
    }
  },
};
