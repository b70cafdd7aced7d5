import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxObs, type SandboxObs } from '../../../main/sandbox/index.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/**
 * The recorder against a simulated OBS that does what OBS 29 did when measured (issue #38): STOPPED
 * comes after OBS finished the file (STOPPING is the take's end), outputDuration lags the file by the
 * encoder's delay, a name with spaces can become `_`, a name whose file exists gets " (2)". The
 * clock is the test's: the simulator's outputDuration and the bridge's times move when it says.
 */
let clockMs = Date.parse('2026-12-02T10:00:00.000Z');
const now = () => new Date(clockMs);
const advance = (seconds: number) => void (clockMs += Math.round(seconds * 1000));

let videos: TempDir;
let obs: SandboxObs;
let bridge: TestBridge | undefined;

beforeEach(async () => {
  videos = tempDir('obs-videos');
  // veryfast, OBS's Simple-mode default: the file is 0.6 s ahead of outputDuration.
  obs = await startSandboxObs({ now, recordingDir: videos.path, encoderDelayMs: 600 });
});
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
  await obs.stop();
  videos.remove();
});

async function bridgeOnObs(): Promise<TestBridge> {
  bridge = await startTestBridge({ RECORDER_OBS_URL: obs.url }, { areas: ['recorder', 'health'], now });
  return bridge;
}
const status = async (b: TestBridge) => (await b.call('GET', '/api/recorder/status')).body;
const connected = (b: TestBridge) => eventually(async () => (await status(b)).connection.connected);
const takes = async (b: TestBridge) =>
  (await b.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];
const recording = (b: TestBridge) => eventually(async () => (await status(b)).recording.active);
const newest = (b: TestBridge, ready: (take: RecorderTake) => boolean) =>
  eventually(async () => {
    const [take] = await takes(b);
    return take && ready(take) ? take : null;
  });

describe('a take', () => {
  it("ends at STOPPING: STOPPED comes once OBS has finished the file, and brings the file's path", async () => {
    const b = await bridgeOnObs();
    await connected(b);
    await b.call('POST', '/api/recorder/filename', { body: { filename: 'ep90' } });
    obs.startRecording();
    await recording(b);
    advance(5);
    obs.stopRecording({ finish: 'later' });
    const stopped = await newest(b, (take) => take.stoppedAt !== null);
    expect(stopped).toMatchObject({ name: 'ep90', durationS: 5, filePath: `${videos.path}/ep90.mkv` });

    // OBS flushes the encoder: the file is no longer than the take, whatever STOPPED's lateness.
    advance(0.6);
    obs.finishStopping();
    const said = await eventually(async () => {
      const { data } = (await b.call('GET', '/api/activity?type=recorder.take')).body;
      return data.find((e: { data: { stopped?: boolean } }) => e.data.stopped);
    });
    expect(said.message).toBe(
      `take "ep90" stopped: ${videos.path}/ep90.mkv (5.0 s); next recording: ep90_T02`,
    );
    expect((await takes(b))[0]).toMatchObject({ durationS: 5, stoppedAt: stopped.stoppedAt });
  });

  it('has its marks at the time since STARTED, pauses excluded, not at the lagging outputDuration', async () => {
    const b = await bridgeOnObs();
    await connected(b);
    obs.startRecording();
    await recording(b);
    advance(5);
    expect(obs.recording.durationMs).toBe(4400);
    const first = await b.call('POST', '/api/recorder/marks', { body: { label: 'at five' } });
    expect(first.body.mark).toMatchObject({ offsetS: 5 });

    obs.pauseRecording();
    await eventually(async () => (await status(b)).recording.paused);
    advance(10);
    obs.resumeRecording();
    await eventually(async () => !(await status(b)).recording.paused);
    advance(3);
    const second = await b.call('POST', '/api/recorder/marks', { body: {} });
    expect(second.body.mark).toMatchObject({ offsetS: 8 });
  });
});

describe('names against the record folder (OBS on this machine)', () => {
  it('skips _Tnn whose file is already there, with or without spaces', async () => {
    writeFileSync(path.join(videos.path, 'ep70.mkv'), 'yesterday');
    writeFileSync(path.join(videos.path, 'ep70_T02.mp4'), 'yesterday');
    writeFileSync(path.join(videos.path, 'ep_71.mkv'), 'yesterday, no spaces');
    const b = await bridgeOnObs();
    await connected(b);
    const set = await b.call('POST', '/api/recorder/filename', { body: { filename: 'ep70' } });
    expect(set.body).toMatchObject({ filename: 'ep70_T03', requested: 'ep70', state: 'applied' });

    obs.setParameter('SimpleOutput', 'FileNameWithoutSpace', 'true');
    const spaced = await b.call('POST', '/api/recorder/filename', { body: { filename: 'ep 71' } });
    expect(spaced.body).toMatchObject({ filename: 'ep 71_T02', state: 'applied' });
    obs.startRecording();
    await recording(b);
    advance(1);
    expect(obs.stopRecording()).toBe(`${videos.path}/ep_71_T02.mkv`);
  });

  it('gives a name held while OBS was away the next free one when OBS connects', async () => {
    writeFileSync(path.join(videos.path, 'ep72.mkv'), 'yesterday');
    await obs.refuseConnections(true);
    const b = await bridgeOnObs();
    const held = await b.call('POST', '/api/recorder/filename', { body: { filename: 'ep72' } });
    expect(held.body).toMatchObject({ filename: 'ep72', state: 'pending' });
    await obs.refuseConnections(false);
    const applied = await eventually(async () => {
      const body = (await b.call('GET', '/api/recorder/filename')).body;
      return body.state === 'applied' ? body : null;
    });
    expect(applied).toMatchObject({ filename: 'ep72_T02', requested: 'ep72', obsFilename: 'ep72_T02' });
  });
});

describe("OBS's profile", () => {
  it('is written only when a value changes: a reconnection rewrites nothing OBS already holds', async () => {
    const b = await bridgeOnObs();
    await connected(b);
    await b.call('POST', '/api/recorder/filename', { body: { filename: 'ep73' } });
    const writes = obs.profileWrites();
    expect(writes).toBe(2); // OverwriteIfExists was true, and the name
    obs.dropConnections();
    await eventually(async () => obs.clients() === 0 && !(await status(b)).connection.connected);
    await connected(b);
    expect(obs.profileWrites()).toBe(writes);
    expect(obs.parameter('Output', 'FilenameFormatting')).toBe('ep73');
  });
});

describe('/api/recorder/status', () => {
  it('never says connected before it knows the name OBS will use', async () => {
    obs.delayRequests('GetProfileParameter', 400);
    const b = await bridgeOnObs();
    const seen: { connected: boolean; obsFilename: string | null }[] = [];
    await eventually(async () => {
      const body = await status(b);
      seen.push({ connected: body.connection.connected, obsFilename: body.filename.obsFilename });
      return body.connection.connected;
    });
    expect(seen.filter((s) => s.connected && s.obsFilename === null)).toEqual([]);
  });
});
