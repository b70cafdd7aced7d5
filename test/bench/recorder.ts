import { startSandboxObs } from '../../main/sandbox/index.js';
import { eventually } from '../support/wait.js';
import { startBuiltBridge } from './built-bridge.js';
import { percentile, type Bench, type BenchResult } from './report.js';

const REQUESTS = Number(process.env.BENCH_RECORDER_REQUESTS ?? 500);
const WARMUP = 50;

/**
 * Issue 27: `POST /api/recorder/filename` → OBS holds the new name. The built bridge and the
 * simulated OBS (obs-websocket 5, the real obs-websocket-js client, MessagePack) on loopback;
 * each call is timed from the request to the answer, which the bridge sends once OBS read the
 * name back (SetProfileParameter, then GetProfileParameter), and the simulator is checked to
 * hold it. One call at a time: a control room sets a name, not a thousand.
 */
export const recorderBench: Bench = {
  name: 'recorder',
  async run(): Promise<BenchResult[]> {
    const obs = await startSandboxObs({ password: 'bench-password' });
    const bridge = await startBuiltBridge(
      { RECORDER_OBS_URL: obs.url, RECORDER_OBS_PASSWORD: 'bench-password' },
      { logLevel: 'warn', areas: ['recorder'] },
    );
    try {
      await eventually(
        async () => (await bridge.call('GET', '/api/recorder/status')).body.connection.connected,
      );
      const times: number[] = [];
      let notHeld = 0;
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const filename = `20260501_bench_${i}`;
        const started = performance.now();
        const answer = await bridge.call('POST', '/api/recorder/filename', { body: { filename } });
        const elapsed = performance.now() - started;
        if (answer.body.state !== 'applied' || obs.parameter('Output', 'FilenameFormatting') !== filename)
          notHeld++;
        if (i >= WARMUP) times.push(elapsed);
      }
      return [
        {
          name: 'filename set → OBS holds it (read back)',
          figures: {
            'p50 ms': percentile(times, 50),
            'p99 ms': percentile(times, 99),
            'max ms': Math.max(...times),
            'not held': notHeld,
          },
          note: `${REQUESTS} calls one at a time after ${WARMUP} warm-up; target p99 ≤ 100 ms`,
        },
      ];
    } finally {
      await bridge.close();
      await obs.stop();
    }
  },
};
