import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { analyzeTranscript as analyzeFromSource } from '../../main/areas/clips/analyze.js';
import { parseTranscript } from '../../main/areas/clips/parse.js';
import { segmentSentences } from '../../main/areas/clips/sentences.js';
import { BRIDGE_V8_FLAGS } from '../../main/kernel/v8-flags.js';
import { TEST_API_KEY } from '../support/bridge.js';
import { built, startBuiltBridge } from './built.js';
import { percentile, type Bench, type BenchResult } from './report.js';

/** The analysis as built (test/bench/built.ts): what the bridge's clip worker runs. */
const builtAnalysis = () =>
  built<{ analyzeTranscript: typeof analyzeFromSource }>('areas/clips/analyze.js').then(
    (module) => module.analyzeTranscript,
  );

const TARGET_WORDS = 30_000;
const HOURS = 3;
// Five: with three, one slow minute of this shared host moved the median by a fifth.
const RUNS = Number(process.env.BENCH_CLIPS_RUNS ?? 5);

/**
 * A three-hour, ~30,000-word transcript: runs of 20–60 consecutive sentences taken from the
 * three marked fixtures (so passages stay coherent and topics recur), in a seeded order, with
 * speakers kept and times laid out evenly over three hours. Same seed, same transcript.
 */
export function threeHourTranscript(format: 'stamped' | 'srt' | 'plain', seed = 7): string {
  const dir = new URL('../fixtures/transcripts/', import.meta.url);
  const sources = ['interview.txt', 'solo.srt', 'panel.vtt'].map((file) =>
    segmentSentences(parseTranscript(readFileSync(new URL(file, dir), 'utf8')).cues),
  );
  let state = seed;
  const random = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const picked: Array<{ text: string; speaker: string | null; words: number }> = [];
  let words = 0;
  while (words < TARGET_WORDS) {
    const source = sources[Math.floor(random() * sources.length)]!;
    const length = 20 + Math.floor(random() * 40);
    const from = Math.floor(random() * Math.max(1, source.length - length));
    for (const sentence of source.slice(from, from + length)) {
      picked.push(sentence);
      words += sentence.words;
    }
  }
  const secondsPerWord = (HOURS * 3600) / words;
  const lines: string[] = [];
  let t = 0;
  picked.forEach((sentence, i) => {
    const start = t;
    t += sentence.words * secondsPerWord;
    const label = sentence.speaker ? `${sentence.speaker.split(' ')[0]!.toUpperCase()}: ` : '';
    if (format === 'stamped') lines.push(`[${clock(start)}] ${label}${sentence.text}`);
    else if (format === 'plain') lines.push(`${label}${sentence.text}`);
    else
      lines.push(
        `${i + 1}\n${clock(start)},${ms(start)} --> ${clock(t)},${ms(t)}\n${label}${sentence.text}\n`,
      );
  });
  return lines.join('\n');
}

const clock = (s: number) =>
  [Math.floor(s / 3600), Math.floor((s % 3600) / 60), Math.floor(s % 60)]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
const ms = (s: number) => String(Math.floor((s % 1) * 1000)).padStart(3, '0');
const median = (values: number[]) => percentile(values, 50);
const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));

interface ChildFigures {
  ms: number[];
  rssBeforeMb: number;
  maxRssMb: number;
  heapUsedAfterMb: number;
  words: number;
  sentences: number;
  windows: number;
  clips: number;
}

/**
 * Runs in a child process (`CLIPS_BENCH_CHILD=<format>`), so its peak resident memory
 * (resourceUsage().maxRSS) is the analysis' own, not the whole bench run's.
 */
async function childMain(format: 'stamped' | 'srt' | 'plain'): Promise<void> {
  const transcript = threeHourTranscript(format);
  const analyzeTranscript = await builtAnalysis();
  const rssBefore = process.memoryUsage().rss;
  const times: number[] = [];
  let result = analyzeTranscript(transcript, { maxClips: 20 });
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = analyzeTranscript(transcript, { maxClips: 20 });
    times.push(performance.now() - started);
  }
  const figures: ChildFigures = {
    ms: times,
    rssBeforeMb: mb(rssBefore),
    maxRssMb: mb(process.resourceUsage().maxRSS * 1024),
    heapUsedAfterMb: mb(process.memoryUsage().heapUsed),
    words: result.stats.words,
    sentences: result.stats.sentences,
    windows: result.stats.windowsScored,
    clips: result.suggestedClips.length,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

async function inChild<T = ChildFigures>(mode: string): Promise<T> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    // Under the bridge's V8 flags, as its clip worker runs (they are the process's: 2 MB
    // semi-spaces cost the analysis ~20 % against Node's defaults, measured side by side).
    [...BRIDGE_V8_FLAGS, '--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)],
    {
      env: { ...process.env, CLIPS_BENCH_CHILD: mode },
      maxBuffer: 1024 * 1024,
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

/** A stamped transcript of about `chars` characters: the three hours again and again, times moving on. */
export function stampedTranscriptOf(chars: number): string {
  const lines = threeHourTranscript('stamped').split('\n');
  const out: string[] = [];
  let length = 0;
  for (let hours = 0; length < chars; hours += HOURS) {
    for (const line of lines) {
      const moved = line.replace(
        /^\[(\d+)(:\d+:\d+\])/,
        (_, h: string, rest: string) => `[${String(Number(h) + hours).padStart(2, '0')}${rest}`,
      );
      out.push(moved);
      length += moved.length + 1;
      if (length >= chars) break;
    }
  }
  return out.join('\n');
}

interface SizeFigures {
  chars: number;
  ms: number;
  peakAboveIdleMb: number;
  afterAboveIdleMb: number;
  words: number;
}

/** One analysis of a transcript of `chars` characters: time, peak RSS above idle, RSS after (GC'd). */
async function sizeChildMain(chars: number): Promise<void> {
  const transcript = stampedTranscriptOf(chars);
  const analyzeTranscript = await builtAnalysis();
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const idle = process.memoryUsage().rss;
  const started = performance.now();
  const result = analyzeTranscript(transcript, { maxClips: 5 });
  const ms = performance.now() - started;
  const peak = process.resourceUsage().maxRSS * 1024;
  gc?.();
  const figures: SizeFigures = {
    chars: transcript.length,
    ms,
    peakAboveIdleMb: mb(peak - idle),
    afterAboveIdleMb: mb(process.memoryUsage().rss - idle),
    words: result.stats.words,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
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
    const analyzeTranscript = await builtAnalysis();
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

const childMode = process.env.CLIPS_BENCH_CHILD;
if (childMode === 'stamped' || childMode === 'srt' || childMode === 'plain') await childMain(childMode);
else if (childMode?.startsWith('size:')) await sizeChildMain(Number(childMode.slice('size:'.length)));
