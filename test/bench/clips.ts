import { execFile } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { BRIDGE_V8_FLAGS } from '../../main/kernel/v8-flags.js';
import { TEST_API_KEY } from '../support/bridge.js';
import { startBuiltBridge } from './built-bridge.js';
import { builtClipAnalysis } from './built.js';
import { RUNS, type ChildFigures, type SizeFigures } from './clips-child.js';
import { percentile, type Bench, type BenchResult } from './report.js';
import { threeHourTranscript } from './transcripts.js';

const median = (values: number[]) => percentile(values, 50);

async function inChild<T = ChildFigures>(mode: string): Promise<T> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    // Under the bridge's V8 flags, as its clip worker runs (they are the process's: 2 MB
    // semi-spaces cost the analysis ~20 % against Node's defaults, measured side by side).
    [
      ...BRIDGE_V8_FLAGS,
      '--expose-gc',
      '--import',
      'tsx',
      fileURLToPath(new URL('clips-child.js', import.meta.url)),
    ],
    {
      env: { ...process.env, CLIPS_BENCH_CHILD: mode },
      maxBuffer: 1024 * 1024,
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

/** Time and memory for growing transcripts, so the growth (linear or not) is visible. */
async function sizeTable(): Promise<BenchResult[]> {
  const rows: BenchResult[] = [];
  for (const chars of [100_000, 500_000, 1_000_000, 2_000_000]) {
    const child = await inChild<SizeFigures>(`size:${chars}`);
    rows.push({
      name: `analyze ${(chars / 1e6).toFixed(1)} M characters (stamped)`,
      figures: {
        ms: Math.round(child.ms),
        'ms per 100 k chars': Math.round((child.ms / child.chars) * 100_000),
        'peak RSS above idle MB': child.peakAboveIdleMb,
        'RSS after, above idle MB': child.afterAboveIdleMb,
      },
      note: `${child.words} words`,
    });
  }
  return rows;
}

/** The baseline: a bare Express handler that parses the same 5 MB-limit JSON body and answers. */
async function startBareJson(): Promise<{ url: string; stop(): Promise<void> }> {
  const app = express();
  app.use(express.json({ limit: '5mb' }));
  app.post('/analyze', (req, res) => {
    const body = req.body as { transcript?: string };
    res.json({ success: true, length: body.transcript?.length ?? 0 });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/analyze`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function timePost(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
  return performance.now() - started;
}

/**
 * Clip analysis of a generated three-hour transcript (~30,000 words): time and peak memory of
 * the analysis alone (child process per format), then the same request through the whole
 * bridge (auth, 5 MB body parse, zod, analysis on the worker thread, activity record, JSON
 * answer) against a bare Express handler parsing the same body, and how long the bridge's event
 * loop stalls meanwhile.
 */
export const clipsBench: Bench = {
  name: 'clips',
  async run(): Promise<BenchResult[]> {
    const results: BenchResult[] = await sizeTable();
    for (const format of ['stamped', 'srt', 'plain'] as const) {
      const child = await inChild(format);
      results.push({
        name: `analyze 3 h ${format} transcript (in process)`,
        figures: {
          'median ms': Math.round(median(child.ms)),
          'words/s': Math.round(child.words / (median(child.ms) / 1000)),
          'peak RSS MB': child.maxRssMb,
          'RSS before MB': child.rssBeforeMb,
          'heap after MB': child.heapUsedAfterMb,
        },
        note: `${child.words} words, ${child.sentences} sentences, ${child.windows} windows, ${child.clips} clips, ${RUNS} runs`,
      });
    }

    // The HTTP path, interleaved with the same analysis in this process, so machine load
    // hits both alike: the difference is what the bridge adds around the analysis.
    const bridge = await startBuiltBridge({}, { logLevel: 'warn' });
    const bare = await startBareJson();
    const analyzeTranscript = await builtClipAnalysis();
    try {
      const transcript = threeHourTranscript('stamped');
      const body = JSON.stringify({ contentProductionId: 'bench', transcript, maxClips: 20 });
      const direct: number[] = [];
      const baseline: number[] = [];
      const viaBridge: number[] = [];
      const loopStalls: number[] = [];
      for (let i = 0; i <= RUNS; i++) {
        const started = performance.now();
        analyzeTranscript(transcript, { maxClips: 20 });
        const analysisMs = performance.now() - started;
        const bareMs = await timePost(bare.url, body, {});
        // The bridge runs in this process: how long its event loop stalls while it analyses.
        const lag = monitorEventLoopDelay({ resolution: 10 });
        lag.enable();
        const bridgeMs = await timePost(`${bridge.url}/clips/analyze`, body, { 'x-api-key': TEST_API_KEY });
        lag.disable();
        if (i === 0) continue; // warm-up
        direct.push(analysisMs);
        baseline.push(bareMs);
        viaBridge.push(bridgeMs);
        loopStalls.push(lag.max / 1e6);
      }
      results.push(
        {
          name: 'bare express POST same body (baseline)',
          figures: { 'median ms': Number(median(baseline).toFixed(1)) },
        },
        {
          name: 'bridge POST /clips/analyze (3 h stamped)',
          figures: {
            'median ms': Math.round(median(viaBridge)),
            'ratio to baseline': Number((median(viaBridge) / median(baseline)).toFixed(1)),
            'same analysis in process ms': Math.round(median(direct)),
            'bridge overhead ms': Math.round(median(viaBridge) - median(direct)),
            'max event-loop stall ms': Math.round(Math.max(...loopStalls)),
          },
          note: `${Math.round(Buffer.byteLength(body) / 1024)} KB body, ${RUNS} runs after a warm-up`,
        },
      );
    } finally {
      await bare.stop();
      await bridge.close();
    }
    return results;
  },
};
