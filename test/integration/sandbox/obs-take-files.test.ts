import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { outsideTool } from '../../support/tools.js';

/**
 * DESIGN §8, round 4: in the sandbox, when FFmpeg is there, the simulated OBS writes a small real
 * file for each take (640×360 at 15 fps, a test picture and a tone, the take's length) in the data
 * dir, and says the take stopped once it is written, so renders can be rehearsed without a studio.
 */
const ffmpeg = outsideTool('ffmpeg', 'FFMPEG_PATH');
const ffprobe = outsideTool('ffprobe', 'FFPROBE_PATH');
const skipped = ffmpeg.skipped || ffprobe.skipped;
let clockMs = Date.parse('2026-12-03T09:00:00.000Z');
const now = () => new Date(clockMs);
let bridge: TestBridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

/** Records a take of `seconds` on the sandbox's simulated OBS; answers it once stopped (with its audio read, when a file was written). */
async function sandboxTake(seconds: number, filename: string, written: boolean): Promise<RecorderTake> {
  const sandbox = (action: string) => bridge!.call('POST', '/api/sandbox/obs', { body: { action } });
  await eventually(async () => (await bridge!.call('GET', '/api/recorder/status')).body.connection.connected);
  await bridge!.call('POST', '/api/recorder/filename', { body: { filename } });
  expect((await sandbox('start')).status).toBe(200);
  await eventually(async () => (await bridge!.call('GET', '/api/recorder/status')).body.recording.active);
  clockMs += seconds * 1000;
  expect((await sandbox('stop')).status).toBe(200);
  return eventually(async () => {
    const takes = (await bridge!.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];
    return takes.find((t) => t.stoppedAt !== null && (!written || t.audioChannels === 2)) ?? null;
  }, 30_000);
}

describe(`the sandbox's simulated OBS${skipped}`, () => {
  it('writes a real file for each take, of its length, in the data dir', async (context) => {
    if (skipped) return context.skip();
    bridge = await startTestBridge(
      {
        BRIDGE_SANDBOX: '1',
        FFMPEG_PATH: ffmpeg.path!,
        FFPROBE_PATH: ffprobe.path!,
        SANDBOX_TAKE_FILES: '1',
      },
      { areas: ['recorder'], now },
    );
    const sandbox = (action: string) => bridge!.call('POST', '/api/sandbox/obs', { body: { action } });
    await eventually(
      async () => (await bridge!.call('GET', '/api/recorder/status')).body.connection.connected,
    );
    await bridge.call('POST', '/api/recorder/filename', { body: { filename: '20261203_Rehearsal' } });
    expect((await sandbox('start')).status).toBe(200);
    await eventually(async () => (await bridge!.call('GET', '/api/recorder/status')).body.recording.active);
    clockMs += 3_000;
    expect((await sandbox('stop')).status).toBe(200);
    // Stopped once the file is written: ffprobe finds its stereo track then.
    const take = await eventually(async () => {
      const takes = (await bridge!.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];
      return takes.find((t) => t.stoppedAt !== null && t.audioChannels === 2) ?? null;
    }, 30_000);
    expect(path.dirname(take.filePath!)).toBe(path.join(bridge.dataDir, 'sandbox-recordings'));
    expect(statSync(take.filePath!).mode & 0o777).toBe(0o600);
    const probed = JSON.parse(
      execFileSync(
        ffprobe.path!,
        [
          '-v',
          'error',
          '-show_entries',
          'stream=codec_type,width,height,avg_frame_rate:format=duration',
          '-of',
          'json',
          take.filePath!,
        ],
        { encoding: 'utf8' },
      ),
    ) as {
      streams: Array<{ codec_type: string; width?: number; height?: number; avg_frame_rate: string }>;
      format: { duration: string };
    };
    expect(probed.streams.find((s) => s.codec_type === 'video')).toMatchObject({
      width: 640,
      height: 360,
      avg_frame_rate: '15/1',
    });
    expect(Number(probed.format.duration)).toBeCloseTo(3, 0);
  }, 60_000);

  it('draws the running timecode on the picture (issue #44.4): the corner it sits in changes with time', async (context) => {
    if (skipped) return context.skip();
    bridge = await startTestBridge(
      { BRIDGE_SANDBOX: '1', FFMPEG_PATH: ffmpeg.path!, SANDBOX_TAKE_FILES: '1' },
      { areas: ['recorder'], now },
    );
    const take = await sandboxTake(3, '20261203_Timecode', true);
    // The timecode's box, bottom centre (x 232–408, y 314–350 of 640×360), against the same place with none.
    const timecodeBox = (...input: string[]) =>
      execFileSync(
        ffmpeg.path!,
        [
          ...['-v', 'error', ...input],
          ...['-frames:v', '1', '-vf', 'crop=176:36:232:314', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
        ],
        { maxBuffer: 1 << 20 },
      );
    const box = (seconds: number) => timecodeBox('-ss', String(seconds), '-i', take.filePath!);
    const plain = timecodeBox('-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=15:duration=1');
    const difference = (a: Buffer, b: Buffer) =>
      a.reduce((sum, value, i) => sum + Math.abs(value - b[i]!), 0) / a.length;
    expect(difference(box(0.5), plain)).toBeGreaterThan(20);
    expect(difference(box(0.5), box(2.5))).toBeGreaterThan(2);
  }, 60_000);

  it('writes none in a test that does not ask for it (SANDBOX_TAKE_FILES is 0 there), FFmpeg or not', async (context) => {
    if (skipped) return context.skip();
    bridge = await startTestBridge(
      { BRIDGE_SANDBOX: '1', FFMPEG_PATH: ffmpeg.path! },
      { areas: ['recorder', 'health'], now },
    );
    const take = await sandboxTake(2, '20261203_Quiet', false);
    // OBS said STOPPED (the file finished, were one written): the recorder's event with its path.
    await eventually(async () => {
      const events = (await bridge!.call('GET', '/api/activity?type=recorder.take')).body.data as Array<{
        data: { takeId: number; stopped: boolean };
      }>;
      return events.some((event) => event.data.takeId === take.id && event.data.stopped);
    });
    expect(existsSync(take.filePath!)).toBe(false);
  }, 60_000);
});
