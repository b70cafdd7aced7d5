import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
afterAll(() => bridge?.close());

describe(`the sandbox's simulated OBS${skipped}`, () => {
  it('writes a real file for each take, of its length, in the data dir', async (context) => {
    if (skipped) return context.skip();
    bridge = await startTestBridge(
      { BRIDGE_SANDBOX: '1', FFMPEG_PATH: ffmpeg.path!, FFPROBE_PATH: ffprobe.path! },
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
});
