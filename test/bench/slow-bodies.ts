import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { signEspoBody } from '../../main/http/espo-signature.js';
import { TEST_API_KEY, type TestBridge } from '../support/bridge.js';
import { callFrom, type RawAnswer } from '../support/raw-call.js';
import { startBuiltBridge } from './built-bridge.js';
import { percentile, type Bench, type BenchResult } from './report.js';
import type { ChildMessage, TricklePlan } from './trickle-child.js';

/**
 * Issue #35.4: how fast /health and a call with the key answer another client while 1,000 sockets
 * trickle webhooks with a forged signature, against no such sockets, in one run. Each probe is a
 * new connection from 127.0.0.1 (it meets the socket cap as a new client would). The trickling
 * sockets come from a child process (trickle-child.ts), as they would from another machine.
 *
 * Two loads from 16 loopback aliases (127.0.4.1–16): "held", each address's 8 places taken by
 * bodies at 40 KiB/s (held to their 8 s deadline) and 54–55 heads sent a byte a second (held to
 * the 5 s headers timeout), each closed one opened again at once: 1,000 sockets open (fewer for
 * the moments the bridge closes a batch of them); "flood", 1,000 bodies a byte a second, each
 * refused or cut one opened again after 200 ms: 128 held, the rest refused and reconnecting. A genuine signed webhook is sent beside the probes: its answers are
 * counted (200, or 503 which EspoCRM retries), never timed.
 */
const PROBES = Number(process.env.BENCH_PROBES ?? 100);
/** Probes are spread over 10 s: past the 5 s and 8 s after which the held sockets are closed and opened again. */
const PROBE_EVERY_MS = 100;
const SECRET = 'bench-slow-bodies';
const ADDRESSES = Array.from({ length: 16 }, (_, i) => `127.0.4.${i + 1}`);
const keyHeader = { authorization: `Bearer ${TEST_API_KEY}` };

async function timed(call: () => Promise<RawAnswer>): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const answer = await call();
  return { ms: performance.now() - started, status: answer.status };
}

/** The attacker's process, once every connection of its plan has started. */
async function attack(bridge: TestBridge, plan: TricklePlan[]): Promise<ChildProcess> {
  const child = fork(
    fileURLToPath(new URL('trickle-child.ts', import.meta.url)),
    [bridge.url, JSON.stringify(plan)],
    {
      execArgv: ['--import', 'tsx'],
    },
  );
  const [message] = (await once(child, 'message')) as [ChildMessage];
  if (!('ready' in message)) throw new Error('trickle child: not ready');
  return child;
}

async function countIn(child: ChildProcess): Promise<{ open: number; started: number }> {
  child.send('count');
  const [message] = (await once(child, 'message')) as [ChildMessage];
  if (!('open' in message)) throw new Error('trickle child: no count');
  return message;
}

async function probe(bridge: TestBridge, child: ChildProcess | null, name: string): Promise<BenchResult[]> {
  const health: number[] = [];
  const keyed: number[] = [];
  const webhookStatuses: number[] = [];
  let failures = 0;
  const open: number[] = [];
  const startedBefore = child ? (await countIn(child)).started : 0;
  const probesStarted = performance.now();
  for (let i = 0; i < PROBES; i++) {
    const h = await timed(() => callFrom(bridge.url, '127.0.0.1', 'GET', '/health'));
    const k = await timed(() =>
      callFrom(bridge.url, '127.0.0.1', 'GET', '/api/webhooks/bindings', { headers: keyHeader }),
    );
    health.push(h.ms);
    keyed.push(k.ms);
    if (h.status !== 200 || k.status !== 200) failures++;
    if (i % 10 === 0) {
      const raw = JSON.stringify([{ id: `g${String(i).padStart(16, '0')}`, name: 'Bench guest' }]);
      const answer = await callFrom(bridge.url, '127.0.0.1', 'POST', '/webhooks/guest-created', {
        body: raw,
        headers: { signature: signEspoBody(raw, SECRET, 'hook-bench-guest-created') },
      });
      webhookStatuses.push(answer.status);
    }
    if (child) open.push((await countIn(child)).open);
    const nextAt = probesStarted + (i + 1) * PROBE_EVERY_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextAt - performance.now())));
  }
  const seconds = (performance.now() - probesStarted) / 1000;
  const connectionsPerSecond = child ? ((await countIn(child)).started - startedBefore) / seconds : 0;
  const figures = (values: number[]) => ({
    'p50 ms': Number(percentile(values, 50).toFixed(1)),
    'p99 ms': Number(percentile(values, 99).toFixed(1)),
    'max ms': Number(Math.max(...values).toFixed(1)),
  });
  const count = (status: number) => webhookStatuses.filter((s) => s === status).length;
  return [
    { name: `/health, ${name}`, figures: { ...figures(health), 'not 200': failures } },
    {
      name: `keyed call, ${name}`,
      figures: {
        ...figures(keyed),
        ...(child
          ? {
              'sockets open, median': percentile(open, 50),
              fewest: Math.min(...open),
              'their new connections/s': Math.round(connectionsPerSecond),
            }
          : {}),
      },
    },
    {
      name: `genuine webhook, ${name}`,
      figures: {
        '200': count(200),
        '503': count(503),
        other: webhookStatuses.length - count(200) - count(503),
      },
    },
  ];
}

export const slowBodiesBench: Bench = {
  name: 'slow-bodies',
  async run() {
    const bridge = await startBuiltBridge({ CRM_WEBHOOK_SECRETS: SECRET }, { areas: ['health', 'webhooks'] });
    const results: BenchResult[] = [];
    try {
      await probe(bridge, null, 'warm-up');
      results.push(...(await probe(bridge, null, 'no trickling socket')));

      const held = await attack(
        bridge,
        ADDRESSES.flatMap((from, i) => [
          { count: 8, kind: 'at-pace', from, pauseMs: 0 },
          { count: i < 8 ? 55 : 54, kind: 'slow-head', from, pauseMs: 0 },
        ]),
      );
      results.push(...(await probe(bridge, held, '1,000 sockets held')));
      held.send('stop');
      await once(held, 'exit');

      const flood = await attack(
        bridge,
        ADDRESSES.map((from, i) => ({ count: i < 8 ? 63 : 62, kind: 'byte-a-second', from, pauseMs: 200 })),
      );
      results.push(...(await probe(bridge, flood, '1,000 trickling bodies reconnecting')));
      flood.send('stop');
      await once(flood, 'exit');
    } finally {
      await bridge.close();
    }
    return results;
  },
};
