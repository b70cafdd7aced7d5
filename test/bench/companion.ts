import { parseFrame } from '../../integrations/companion/src/event-stream.js';
import { TEST_API_KEY } from '../support/bridge.js';
import { startCompanionHost, type CompanionHost } from '../support/companion/client.js';
import { now, type HostMessage } from '../support/companion/protocol.js';
import { startBuiltBridge } from './built-bridge.js';
import { percentile, type Bench, type BenchResult } from './report.js';

const NAMES = Number(process.env.BENCH_COMPANION_NAMES ?? 300);
const TAKES = Number(process.env.BENCH_COMPANION_TAKES ?? 100);
const WARMUP = 20;

/**
 * Issue 29: a bridge event → the Companion variable or feedback it changes, p99 ≤ 150 ms. The
 * built bridge in sandbox mode (its simulated OBS), the module in the Companion test host on
 * Node 22 (another process, as in Companion), one change at a time. Two clocks per change, both
 * in epoch ms of this machine: from when a second /events reader in this process saw the event,
 * and (an upper bound) from when the request that causes it was sent. The host stamps the change
 * when the module calls setVariableValues or its feedback's value changes.
 */
export const companionBench: Bench = {
  name: 'companion',
  async run(): Promise<BenchResult[]> {
    const bridge = await startBuiltBridge(
      { BRIDGE_SANDBOX: '1' },
      { logLevel: 'warn', areas: ['recorder', 'health'] },
    );
    /** Events as this process's own reader saw them: `type:detail` and when. */
    const seen: Array<[string, number]> = [];
    const reader = new AbortController();
    const host = startCompanionHost();
    try {
      void readEvents(bridge.url, reader.signal, (key) => seen.push([key, now()]));
      await host.init(bridge.url, TEST_API_KEY);
      await host.until((h) => h.status()?.status === 'ok', 20_000);
      await host.addFeedback('recording', 'recording');

      const names = { fromEvent: [] as number[], fromRequest: [] as number[] };
      for (let i = 0; i < WARMUP + NAMES; i++) {
        const filename = `20260501_bench_${i}`;
        const changed = nextMessage(
          host,
          (m) => m.kind === 'variables' && m.values.next_filename === filename,
        );
        const sent = now();
        await bridge.call('POST', '/api/recorder/filename', { body: { filename } });
        const at = (await changed).at;
        if (i < WARMUP) continue;
        names.fromRequest.push(at - sent);
        names.fromEvent.push(
          at - (seen.find(([key]) => key === `recorder.filename:${filename}`)?.[1] ?? Number.NaN),
        );
      }

      const takes = { fromEvent: [] as number[], fromRequest: [] as number[] };
      for (let i = 0; i < WARMUP + TAKES; i++) {
        for (const action of ['start', 'stop'] as const) {
          const value = action === 'start';
          const changed = nextMessage(
            host,
            (m) => m.kind === 'feedback' && m.id === 'recording' && m.value === value,
          );
          const before = seen.length;
          const sent = now();
          await bridge.call('POST', '/api/sandbox/obs', { body: { action } });
          const at = (await changed).at;
          if (i < WARMUP) continue;
          const eventAt = [...seen]
            .slice(before)
            .find(([key]) => key.startsWith(`recorder.take:${!value}`))?.[1];
          takes.fromRequest.push(at - sent);
          takes.fromEvent.push(at - (eventAt ?? Number.NaN));
        }
      }
      return [
        result('recorder.filename event → next_filename variable', names, NAMES),
        result('recorder.take event → recording feedback', takes, TAKES * 2),
      ];
    } finally {
      reader.abort();
      await host.close();
      await bridge.close();
    }
  },
};

function result(
  name: string,
  times: { fromEvent: number[]; fromRequest: number[] },
  count: number,
): BenchResult {
  const fromEvent = times.fromEvent.filter((t) => Number.isFinite(t));
  return {
    name,
    figures: {
      'p50 ms': percentile(fromEvent, 50),
      'p99 ms': percentile(fromEvent, 99),
      'max ms': Math.max(...fromEvent),
      'request→ p99 ms': percentile(times.fromRequest, 99),
      'events unseen': times.fromEvent.length - fromEvent.length,
    },
    note: `${count} changes one at a time after ${WARMUP} warm-up; module on Node 22 in another process; target p99 ≤ 150 ms`,
  };
}

function nextMessage(host: CompanionHost, match: (message: HostMessage) => boolean): Promise<{ at: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error('no change within 10 s'));
    }, 10_000);
    const stop = host.onMessage((message) => {
      if (!match(message) || !('at' in message)) return;
      clearTimeout(timer);
      stop();
      resolve({ at: message.at });
    });
  });
}

/** A plain /events reader: `type:filename` or `type:stopped` per event, as it arrives. */
async function readEvents(url: string, signal: AbortSignal, onEvent: (key: string) => void): Promise<void> {
  const response = await fetch(`${url}/events`, {
    headers: { authorization: `Bearer ${TEST_API_KEY}` },
    signal,
  });
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body!) {
      buffer += decoder.decode(chunk, { stream: true });
      const frames = buffer.split('\n\n');
      buffer = frames.pop() ?? '';
      for (const frame of frames) {
        const event = parseFrame(frame);
        if (!event) continue;
        const detail = event.type === 'recorder.take' ? event.data?.stopped : event.data?.filename;
        onEvent(`${event.type}:${String(detail)}`);
      }
    }
  } catch {
    // aborted at the end of the bench
  }
}
