import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { constants, setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import type { RecorderTake } from '../../shared/api/recorder.js';
import type { RenderRecord } from '../../shared/api/renders.js';
import { npmFfmpeg } from '../../main/kernel/media-tools.js';
import { startSandboxObs } from '../../main/sandbox/index.js';
import { eventually } from '../support/wait.js';
import { startBuiltBridge } from './built-bridge.js';
import { percentile, type Bench, type BenchResult } from './report.js';

/**
 * Issue #43.6: a 60 s 1080×1920 clip with burned captions, rendered from a 1080p take by the built
 * bridge (POST …/render to done), against the same FFmpeg commands run by hand (the ones the bridge
 * ran, recorded by a wrapper named as FFMPEG_PATH, at the same lowered priority); the same commands
 * with the npm-shipped FFmpeg 4.1; the test webhook's answer while the render runs and before it;
 * the bridge's memory across the render (sampled in this process, where the built bridge runs). One
 * run each: the render alone, by hand, the render again under webhook calls, the npm FFmpeg by hand. The 66 s take (a 1080p test picture and a tone) is made once and kept in the system's temp
 * folder.
 */
const CLIP_S = 60;
const TAKE_S = 66;
const CACHE = path.join(tmpdir(), 'studio-bridge-bench-render');
const TAKE_NAME = '20261201_Bench_Take';

function program(name: string, envVar: string): string | null {
  const fromEnv = process.env[envVar]?.trim();
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('/bin/sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** The bench take, made once: 1920×1080 at 30 fps and a tone in stereo AAC, TAKE_S long. */
function benchTake(ffmpeg: string): string {
  const file = path.join(CACHE, `${TAKE_NAME}.mkv`);
  if (existsSync(file)) return file;
  mkdirSync(CACHE, { recursive: true });
  const part = `${file}.part.mkv`;
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${TAKE_S}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${TAKE_S}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-ac', '2', '-shortest', part],
  ]);
  renameSync(part, file);
  return file;
}

/** One run-on sentence of 60 s (no full stop): the mark inside it pins exactly it. */
function transcript(): string {
  const words = Array.from({ length: 150 }, (_, i) => `word${i % 10 === 9 ? ',' : ''}`).join(' ');
  return `1\n00:00:02,000 --> 00:01:02,000\nHOST: Our costs stayed under five percent, ${words}\n`;
}

/** FFMPEG_PATH for the bridge: keeps each call's arguments and caption scripts, then is FFmpeg. */
function recordingWrapper(dir: string, ffmpeg: string): string {
  mkdirSync(dir, { recursive: true });
  const wrapper = path.join(dir, 'ffmpeg');
  writeFileSync(
    wrapper,
    [
      '#!/bin/sh',
      `out="${dir}/call-$(date +%s%N)-$$"`,
      'mkdir -p "$out"',
      'for a in "$@"; do printf \'%s\\0\' "$a"; done > "$out/args"',
      'for a in "$@"; do last="$a"; done',
      'cp "$(dirname "$last")"/*.ass "$out"/ 2>/dev/null',
      `exec "${ffmpeg}" "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o755);
  return wrapper;
}

interface RecordedCall {
  dir: string;
  args: string[];
}

function recordedRenderCalls(dir: string): RecordedCall[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith('call-'))
    .sort()
    .map((name) => ({
      dir: path.join(dir, name),
      args: readFileSync(path.join(dir, name, 'args'), 'utf8')
        .split('\0')
        .slice(0, -1),
    }))
    .filter((call) => call.args.includes('-progress'));
}

/** Runs one command as the bridge runs FFmpeg (below normal priority); its time in ms. */
function timed(ffmpeg: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    if (child.pid !== undefined) setPriority(child.pid, constants.priority.PRIORITY_BELOW_NORMAL);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`FFmpeg ${code}: ${stderr}`)),
    );
  });
}

/** The bridge's calls again by hand, each output and caption script moved to `into`. */
async function byHand(ffmpeg: string, calls: readonly RecordedCall[], renderDir: string, into: string) {
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  let total = 0;
  for (const call of calls) {
    for (const name of readdirSync(call.dir)) {
      if (name.endsWith('.ass'))
        writeFileSync(path.join(into, name), readFileSync(path.join(call.dir, name)));
    }
    total += await timed(
      ffmpeg,
      call.args.map((arg) => arg.split(renderDir).join(into)),
    );
  }
  return total;
}

export const renderBench: Bench = {
  name: 'render',
  async run(): Promise<BenchResult[]> {
    const ffmpeg = program('ffmpeg', 'FFMPEG_PATH');
    const ffprobe = program('ffprobe', 'FFPROBE_PATH');
    if (!ffmpeg || !ffprobe)
      return [{ name: 'render', figures: {}, note: 'skipped: ffmpeg or ffprobe not found' }];
    const takeFile = benchTake(ffmpeg);
    const work = path.join(CACHE, `run-${process.pid}`);
    const calls = path.join(work, 'calls');
    let clockMs = Date.parse('2026-12-01T09:00:00.000Z');
    const now = () => new Date(clockMs);
    // OBS records into this run's folder: the cached take is linked in at the name OBS gives it
    // (a name already on disk would be skipped for the next _Tnn).
    const obs = await startSandboxObs({ now, recordingDir: path.join(work, 'recordings') });
    const bridge = await startBuiltBridge(
      { RECORDER_OBS_URL: obs.url, FFMPEG_PATH: recordingWrapper(calls, ffmpeg), FFPROBE_PATH: ffprobe },
      { logLevel: 'warn', areas: ['recorder', 'clips', 'renders', 'webhooks', 'health'], now },
    );
    try {
      // The take on the simulated OBS, marked at 30 s; its file is the cached one, at the name OBS gives.
      await eventually(
        async () => (await bridge.call('GET', '/api/recorder/status')).body.connection.connected,
      );
      await bridge.call('POST', '/api/recorder/filename', { body: { filename: TAKE_NAME } });
      await eventually(
        async () => (await bridge.call('GET', '/api/recorder/filename')).body.state === 'applied',
      );
      obs.startRecording();
      await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.recording.active);
      clockMs += 30_000;
      await bridge.call('POST', '/api/recorder/marks', { body: { label: 'costs' } });
      clockMs += (TAKE_S - 30) * 1000;
      const filePath = obs.stopRecording({ finish: 'later' });
      mkdirSync(path.dirname(filePath), { recursive: true });
      linkSync(takeFile, filePath);
      obs.finishStopping();
      const take = await eventually(async () => {
        const takes = (await bridge.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];
        return takes.find((t) => t.filePath === filePath && t.stoppedAt !== null) ?? null;
      });
      if (take.filePath === null || path.resolve(take.filePath) !== path.resolve(filePath))
        throw new Error(`bench: the bridge holds ${take.filePath}, not the take OBS wrote at ${filePath}`);
      const analysed = await bridge.call('POST', '/clips/analyze', {
        body: { contentProductionId: 'bench', transcript: transcript(), maxClips: 1, takeId: take.id },
      });
      const clip = analysed.body.suggestedClips?.[0] as { startTime: number; endTime: number } | undefined;
      if (analysed.status !== 200 || !clip || clip.endTime - clip.startTime !== CLIP_S)
        throw new Error(`bench: no ${CLIP_S} s clip: ${JSON.stringify(analysed.body).slice(0, 400)}`);

      const webhook = async () => {
        const started = performance.now();
        const answer = await bridge.call('POST', '/webhooks/test', { body: {} });
        if (answer.status !== 200) throw new Error(`bench: /webhooks/test answered ${answer.status}`);
        return performance.now() - started;
      };
      const idleTimes: number[] = [];
      for (let i = 0; i < 100; i++) idleTimes.push(await webhook());

      const memory: number[] = [];
      const rss: number[] = [];
      const sample = () => {
        const usage = process.memoryUsage();
        memory.push(usage.heapUsed + usage.external + usage.arrayBuffers);
        rss.push(usage.rss);
      };
      const renderClip = async (between: () => Promise<void>) => {
        const started = performance.now();
        const asked = await bridge.call(
          'POST',
          `/clips/analyses/${analysed.body.analysisId}/clips/1/render`,
          {
            body: { formats: ['9x16'], captions: true },
          },
        );
        if (asked.status !== 202) throw new Error(`bench: render refused: ${JSON.stringify(asked.body)}`);
        const id = (asked.body.render as RenderRecord).id;
        for (;;) {
          await between();
          const render = (await bridge.call('GET', `/api/renders/${id}`)).body.render as RenderRecord;
          if (render.state === 'done') return { id, ms: performance.now() - started };
          if (render.state !== 'queued' && render.state !== 'rendering')
            throw new Error(`bench: render ${render.state}: ${render.error}`);
        }
      };
      // Alone (polled twice a second), then by hand, then again under webhook calls, then the npm FFmpeg.
      sample();
      const alone = await renderClip(async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        sample();
      });
      const bridgeMs = alone.ms;
      const renderDir = path.join(bridge.dataDir, 'renders', alone.id);
      const recorded = recordedRenderCalls(calls);
      const handMs = await byHand(ffmpeg, recorded, renderDir, path.join(work, 'by-hand'));
      const busyTimes: number[] = [];
      const underLoad = await renderClip(async () => {
        busyTimes.push(await webhook());
        await new Promise((resolve) => setTimeout(resolve, 100));
      });
      const handAgainMs = await byHand(ffmpeg, recorded, renderDir, path.join(work, 'by-hand'));
      const shipped = npmFfmpeg();
      const npmMs = shipped ? await byHand(shipped, recorded, renderDir, path.join(work, 'npm')) : NaN;
      const quarter = Math.max(1, Math.floor(memory.length / 4));
      const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
      return [
        {
          name: `${CLIP_S} s 9:16 with captions, through the bridge`,
          figures: { s: Math.round(bridgeMs / 100) / 10, '× clip': bridgeMs / 1000 / CLIP_S },
          note: `POST …/render to done, polled every 500 ms, ${recorded.length} FFmpeg runs (loudness, encode); target ≤ 1.0× on an idle machine`,
        },
        {
          name: 'the same FFmpeg commands by hand',
          figures: {
            s: Math.round(handMs / 100) / 10,
            '× clip': handMs / 1000 / CLIP_S,
            'bridge ÷ hand': bridgeMs / handMs,
          },
          note: `${path.basename(ffmpeg)} at the bridge's priority; target bridge ≤ 1.1× by hand`,
        },
        {
          name: 'again: through the bridge under webhook calls',
          figures: { s: Math.round(underLoad.ms / 100) / 10, '× clip': underLoad.ms / 1000 / CLIP_S },
          note: 'the render of the webhook figures below',
        },
        {
          name: 'again: the same commands by hand',
          figures: {
            s: Math.round(handAgainMs / 100) / 10,
            '× clip': handAgainMs / 1000 / CLIP_S,
            'bridge ÷ hand': underLoad.ms / handAgainMs,
          },
          note: 'the runs take turns (bridge, hand, bridge, hand): a ratio from neighbours on a host whose speed moves',
        },
        {
          name: 'the same commands, npm FFmpeg 4.1',
          figures: { s: Math.round(npmMs / 100) / 10, '× clip': npmMs / 1000 / CLIP_S },
          note: shipped ?? 'no npm binary for this platform',
        },
        {
          name: 'POST /webhooks/test answer',
          figures: {
            'idle p95 ms': percentile(idleTimes, 95),
            'rendering p95 ms': percentile(busyTimes, 95),
            'rendering max ms': Math.max(...busyTimes),
            calls: busyTimes.length,
          },
          note: 'one at a time, every 100 ms, before and while a second render of the clip runs',
        },
        {
          name: 'bridge process memory across the render',
          figures: {
            'start MB': mb(memory[0]!),
            'first quarter max MB': mb(Math.max(...memory.slice(0, quarter))),
            'last quarter max MB': mb(Math.max(...memory.slice(-quarter))),
            'rss start MB': mb(rss[0]!),
            'rss max MB': mb(Math.max(...rss)),
          },
          note: 'heap + external + array buffers; flat from the first quarter of the clip to the last: no growth with its length',
        },
      ];
    } finally {
      await bridge.close();
      await obs.stop();
      rmSync(work, { recursive: true, force: true });
    }
  },
};
