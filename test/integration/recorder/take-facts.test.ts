import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxObs, type SandboxObs } from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';
import { outsideTool } from '../../support/tools.js';

/**
 * What a take knows for the editor (issues #38.5 and #39.1): a reel of its own, unique among the
 * studio's takes and stable; the frame rate OBS records at (GetVideoSettings when the take starts);
 * the audio channels of the file it wrote (ffprobe, when the bridge can read the file).
 */
let clockMs = Date.parse('2026-12-01T09:00:00.000Z');
const now = () => new Date(clockMs);
const ffmpeg = outsideTool('ffmpeg', 'FFMPEG_PATH');
const ffprobe = outsideTool('ffprobe', 'FFPROBE_PATH');

let videos: TempDir;
let obs: SandboxObs;
let bridge: TestBridge;

beforeAll(async () => {
  videos = tempDir('obs-videos');
  obs = await startSandboxObs({ now, recordingDir: videos.path });
  bridge = await startTestBridge({ RECORDER_OBS_URL: obs.url }, { areas: ['recorder'], now });
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.connection.connected);
});
afterAll(async () => {
  await bridge?.close();
  await obs?.stop();
  videos?.remove();
});

const takes = async () => (await bridge.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];

/** `written`: the file the simulated OBS (which writes nothing) names, made once it names it. */
async function record(seconds: number, written?: (path: string) => void): Promise<RecorderTake> {
  const before = (await takes()).length;
  const path = obs.startRecording();
  written?.(path);
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.recording.active);
  clockMs += seconds * 1000;
  obs.stopRecording();
  return eventually(async () => {
    const list = await takes();
    return list.length > before && list[0]!.stoppedAt ? list[0]! : null;
  });
}

describe('a take of the editor', () => {
  it('has a reel of its own: the takes of one day (T01, T02) never share one, and it stays', async () => {
    await bridge.call('POST', '/api/recorder/filename', { body: { filename: '20261201_Episode_52' } });
    const first = await record(3);
    const second = await record(3);
    expect([first.name, second.name]).toEqual(['20261201_Episode_52', '20261201_Episode_52_T02']);
    for (const take of [first, second]) expect(take.reel).toMatch(/^[A-Z0-9]{8}$/);
    expect(first.reel).not.toBe(second.reel);
    const again = await takes();
    expect(again.find((take) => take.id === first.id)!.reel).toBe(first.reel);
    const reels = again.map((take) => take.reel);
    expect(new Set(reels).size).toBe(reels.length);
  });

  it("knows OBS's frame rate from GetVideoSettings at its start, as OBS 29 answers it", async () => {
    obs.setVideoSettings({ fpsNumerator: 30000, fpsDenominator: 1001, outputWidth: 1280, outputHeight: 720 });
    const take = await record(2);
    expect(take.video).toEqual({ fpsNumerator: 30000, fpsDenominator: 1001, width: 1280, height: 720 });
    expect(take.frameRate).toBe('29.97');
    obs.setVideoSettings({ fpsNumerator: 30, fpsDenominator: 1, outputWidth: 1920, outputHeight: 1080 });
    expect((await record(2)).frameRate).toBe('30');
  });

  it('has no frame rate when OBS refuses GetVideoSettings, and says nothing wrong about it', async () => {
    obs.refuseRequests('GetVideoSettings', { code: 207, comment: 'Not ready.' });
    const take = await record(2);
    expect(take.video).toBeNull();
    expect(take.frameRate).toBeNull();
  });

  it(`counts the audio channels of the file it wrote (ffprobe)${ffmpeg.skipped}${ffprobe.skipped}`, async (context) => {
    if (!ffmpeg.path || !ffprobe.path) return context.skip();
    await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'mono interview' } });
    // The simulated OBS writes nothing: the file it names is made as it starts, one second, mono.
    const take = await record(1, (path) =>
      execFileSync(ffmpeg.path!, [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=30:duration=1'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ac', '1', '-shortest'],
        path,
      ]),
    );
    expect(take.filePath).toBe(`${videos.path}/mono interview.mkv`);
    expect(
      (
        await eventually(async () =>
          (await takes()).find((t) => t.id === take.id && t.audioChannels !== null),
        )
      ).audioChannels,
    ).toBe(1);
    // A file the bridge cannot read (OBS on another machine): not known.
    const elsewhere = await record(1);
    expect(elsewhere.audioChannels).toBeNull();
  });
});
