/**
 * The real-OBS tier's driver (issue #38.1, .2, .4, .5): runs inside run-in-netns.sh beside a
 * seeded OBS, starts the bridge on it, records real files and writes what it found to the JSON
 * file named by its argument; test/obs/real-obs.test.ts reads it and asserts. Ground truth is the
 * file: ffprobe for names and lengths, FFmpeg's luma per frame for where a mark's picture starts.
 */
import { execFile as execFileCallback, execFileSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import OBSWebSocket from 'obs-websocket-js';
import type { RecorderTake } from '../../shared/api/recorder.js';
import { eventually, startTestBridge, type TestBridge } from '../support/bridge.js';

const execFile = promisify(execFileCallback);
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this through test/obs/run-in-netns.sh`);
  return value;
};
const url = env('OBS_WS_URL');
const password = env('OBS_WS_PASSWORD');
const recordDir = env('OBS_RECORD_DIR');
const outFile = process.argv[2];
if (!outFile) throw new Error('usage: driver.ts RESULTS.json');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (text: string) =>
  process.stderr.write(`[driver +${(performance.now() / 1000).toFixed(1)} s] ${text}\n`);

async function connectObs(): Promise<OBSWebSocket> {
  return eventually(
    async () => {
      const socket = new OBSWebSocket();
      await socket.connect(url, password, { rpcVersion: 1 });
      return socket;
    },
    30_000,
    100,
  );
}

let obs = await connectObs();
const call = (type: string, data?: object) =>
  (obs.call as (type: string, data?: object) => Promise<Record<string, unknown>>)(type, data);
const obsFilename = async () =>
  (await call('GetProfileParameter', { parameterCategory: 'Output', parameterName: 'FilenameFormatting' }))
    .parameterValue as string | null;

const results: Record<string, unknown> = {};
const version = await call('GetVersion');
results.version = { obs: version.obsVersion, obsWebSocket: version.obsWebSocketVersion };
say(`OBS ${String(version.obsVersion)}, obs-websocket ${String(version.obsWebSocketVersion)}`);

// A file from "yesterday" in OBS's folder: the bridge must not give its name to a take (issue #38.4).
writeFileSync(path.join(recordDir, 'tier-disk.mkv'), 'yesterday');

const bridge: TestBridge = await startTestBridge(
  { RECORDER_OBS_URL: url, RECORDER_OBS_PASSWORD: password },
  { areas: ['recorder'] },
);
const status = async () => (await bridge.call('GET', '/api/recorder/status')).body;
const takes = async () => (await bridge.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];
const setName = (filename: string) => bridge.call('POST', '/api/recorder/filename', { body: { filename } });

async function probe(file: string): Promise<{ duration: number; video: boolean; audio: boolean }> {
  const { stdout } = await execFile('ffprobe', [
    ...['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', file],
  ]);
  const json = JSON.parse(stdout) as { format: { duration: string }; streams: { codec_type: string }[] };
  return {
    duration: Number(json.format.duration),
    video: json.streams.some((s) => s.codec_type === 'video'),
    audio: json.streams.some((s) => s.codec_type === 'audio'),
  };
}

/** Where (s, on the file's timeline) the picture first turns bright: the Mark item switched on. */
async function firstBrightFrame(file: string): Promise<number | null> {
  const { stdout } = await execFile(
    'ffmpeg',
    [
      ...['-nostdin', '-v', 'error', '-threads', '1', '-i', file, '-an'],
      ...['-vf', 'signalstats,metadata=mode=print:key=lavfi.signalstats.YAVG:file=-', '-f', 'null', '-'],
    ],
    { maxBuffer: 64 << 20 },
  );
  let pts: number | null = null;
  for (const line of stdout.split('\n')) {
    const frame = /^frame:\d+\s+pts:-?\d+\s+pts_time:(-?[\d.]+)/.exec(line);
    if (frame) pts = Number(frame[1]);
    const luma = /lavfi\.signalstats\.YAVG=([\d.]+)/.exec(line);
    if (luma && pts !== null && Number(luma[1]) > 128) return pts;
  }
  return null;
}

const setMark = (visible: boolean) =>
  call('SetSceneItemEnabled', { sceneName: 'Main', sceneItemId: 3, sceneItemEnabled: visible });

/** One take of `seconds`, with a mark (and the Mark item switched on) at `markAt` when given. */
async function take(
  seconds: number,
  markAt?: number,
): Promise<RecorderTake & { markOffsetS: number | null }> {
  const before = (await takes()).length;
  await call('StartRecord');
  await eventually(async () => (await status()).recording.active, 15_000, 10);
  const startedAt = performance.now();
  let markOffsetS: number | null = null;
  if (markAt !== undefined) {
    await sleep(markAt * 1000 - (performance.now() - startedAt));
    const [, mark] = await Promise.all([
      setMark(true),
      bridge.call('POST', '/api/recorder/marks', { body: {} }),
    ]);
    markOffsetS = mark.body.mark.offsetS as number;
  }
  await sleep(seconds * 1000 - (performance.now() - startedAt));
  await call('StopRecord');
  if (markAt !== undefined) await setMark(false);
  const done = await eventually(async () => {
    const list = await takes();
    const [newest] = list;
    return list.length > before && newest?.stoppedAt && newest.filePath && existsSync(newest.filePath)
      ? newest
      : null;
  }, 20_000);
  // STOPPED: OBS has finished the file.
  await eventually(async () => !(await call('GetRecordStatus')).outputActive, 20_000);
  await sleep(300);
  return { ...done, markOffsetS };
}

// 1. API call → OBS holds the name, 50 names.
const nameMs: number[] = [];
await eventually(async () => (await status()).connection.connected, 30_000);
for (let i = 1; i <= 50; i++) {
  const name = `tier-name-${String(i).padStart(2, '0')}`;
  const t0 = performance.now();
  const answer = await setName(name);
  if (answer.body.state !== 'applied') throw new Error(`name ${name}: ${JSON.stringify(answer.body)}`);
  await eventually(async () => (await obsFilename()) === name, 5_000, 1);
  nameMs.push(performance.now() - t0);
}
results.nameMs = nameMs;
say(`50 names applied`);

// 2. The name set through the bridge is the file's name; the second take gets _T02, the first stays.
await setName('tier take one');
const first = await take(1.5);
const firstStat = statSync(first.filePath!);
const second = await take(1.5);
results.names = {
  first: { name: first.name, file: path.basename(first.filePath!), probe: await probe(first.filePath!) },
  second: { name: second.name, file: path.basename(second.filePath!), probe: await probe(second.filePath!) },
  firstUntouched:
    statSync(first.filePath!).size === firstStat.size &&
    statSync(first.filePath!).mtimeMs === firstStat.mtimeMs,
  frameRate: first.frameRate,
};
await call('SetProfileParameter', {
  parameterCategory: 'SimpleOutput',
  parameterName: 'FileNameWithoutSpace',
  parameterValue: 'true',
});
await setName('tier no space');
const noSpace = await take(1);
results.noSpace = {
  name: noSpace.name,
  file: path.basename(noSpace.filePath!),
  exists: existsSync(noSpace.filePath!),
};
await call('SetProfileParameter', {
  parameterCategory: 'SimpleOutput',
  parameterName: 'FileNameWithoutSpace',
  parameterValue: 'false',
});
say('names in files checked');

// 3. Names against disk: yesterday's tier-disk.mkv is skipped.
results.disk = (await setName('tier-disk')).body;

// 4. Takes and marks against the file, 5 takes of 4 s, a mark at 2 s. With x264 veryfast, OBS's
// Simple-mode default (read at every start): the encoder's delay, by which STOPPED and
// outputDuration lag the file, is then ~0.6 s, as in the issue.
const preset = (value: string) =>
  call('SetProfileParameter', {
    parameterCategory: 'SimpleOutput',
    parameterName: 'Preset',
    parameterValue: value,
  });
await preset('veryfast');
const measured = [];
for (let i = 1; i <= 5; i++) {
  await setName(`tier-measure-${i}`);
  const done = await take(4, 2);
  const file = await probe(done.filePath!);
  const bright = await firstBrightFrame(done.filePath!);
  measured.push({
    file: path.basename(done.filePath!),
    takeS: done.durationS,
    fileS: file.duration,
    markS: done.markOffsetS,
    brightS: bright,
  });
}
results.takes = measured;
await preset('ultrafast');
say('5 measured takes');

// 5. The shell's characters (and %) are refused, and OBS's name is unchanged.
const held = await obsFilename();
const refused = [];
for (const character of ['$', '`', '"', '\\', '%']) {
  const answer = await setName(`tier safety ${character}(echo hi)`);
  refused.push({ character, status: answer.status, error: answer.body.error, obsAfter: await obsFilename() });
}
results.safety = { held, refused };

// 6. OBS killed once the name was read back, its profile reseeded, started again: the name set
// meanwhile reaches it with no bridge restart.
await setName('tier before crash');
const readBack = await obsFilename();
const ctl = (...args: string[]) => execFileSync(env('OBS_CTL'), args, { encoding: 'utf8' }).trim();
ctl('kill9');
await eventually(async () => !(await status()).connection.connected, 15_000);
const pending = (await setName('tier after crash')).body;
ctl('reseed', 'profile');
ctl('start');
ctl('wait-ready', '60');
obs = await connectObs();
const reseeded = await obsFilename();
const applied = await eventually(async () => {
  const body = (await bridge.call('GET', '/api/recorder/filename')).body;
  return body.state === 'applied' ? body : null;
}, 30_000);
const obsHolds = await obsFilename();
const afterCrash = await take(1);
results.crash = {
  readBack,
  pending: { filename: pending.filename, state: pending.state },
  applied: { filename: applied.filename, obsFilename: applied.obsFilename },
  reseeded,
  obsHolds,
  file: path.basename(afterCrash.filePath!),
  exists: existsSync(afterCrash.filePath!),
};
say('crash and restart checked');

writeFileSync(outFile, `${JSON.stringify(results, null, 1)}\n`);
await bridge.close();
await obs.disconnect();
