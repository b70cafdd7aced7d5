import { describe, expect, it } from 'vitest';
import { readFfmpegInfo, readFfprobeJson } from '../../../main/areas/renders/media-info.js';

/** `ffprobe -v error -show_entries format=duration:stream=codec_type,width,height -of json`. */
const probed = JSON.stringify({
  programs: [],
  streams: [{ codec_type: 'video', width: 1920, height: 1080 }, { codec_type: 'audio' }],
  format: { duration: '6.021000' },
});

/** What `ffmpeg -hide_banner -i <file>` writes on stderr (FFmpeg 5.1; 4.1 indents streams once more). */
const ffmpegSays = `Input #0, matroska,webm, from 'take.mkv':
  Metadata:
    ENCODER         : Lavf59.27.100
  Duration: 00:01:06.02, start: 0.000000, bitrate: 15589 kb/s
    Stream #0:0: Video: h264 (Constrained Baseline), yuv420p(progressive), 1920x1080 [SAR 1:1 DAR 16:9], 30 fps, 30 tbr, 1k tbn, 60 tbc
    Metadata:
      ENCODER         : Lavc59.37.100 libx264
    Stream #0:1: Audio: aac (LC), 48000 Hz, stereo, fltp
At least one output file must be specified
`;

describe('what a take holds', () => {
  it('reads ffprobe’s JSON', () => {
    expect(readFfprobeJson(probed)).toEqual({ durationS: 6.021, width: 1920, height: 1080, hasAudio: true });
  });

  it('reads FFmpeg’s own description when there is no ffprobe (the npm binary)', () => {
    expect(readFfmpegInfo(ffmpegSays)).toEqual({
      durationS: 66.02,
      width: 1920,
      height: 1080,
      hasAudio: true,
    });
  });

  it('reads a file without audio', () => {
    const silent = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'a.mp4':
  Duration: 00:00:01.00, start: 0.000000, bitrate: 297 kb/s
  Stream #0:0[0x1](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(progressive), 320x240 [SAR 1:1 DAR 4:3], 287 kb/s, 25 fps, 25 tbr, 12800 tbn (default)
`;
    expect(readFfmpegInfo(silent)).toEqual({ durationS: 1, width: 320, height: 240, hasAudio: false });
    expect(
      readFfprobeJson(
        JSON.stringify({
          streams: [{ codec_type: 'video', width: 320, height: 240 }],
          format: { duration: '1.0' },
        }),
      ),
    ).toEqual({ durationS: 1, width: 320, height: 240, hasAudio: false });
  });

  it('is null for what is no video', () => {
    expect(readFfmpegInfo('take.mkv: No such file or directory\n')).toBeNull();
    expect(readFfprobeJson('{"streams":[{"codec_type":"audio"}],"format":{"duration":"3"}}')).toBeNull();
    expect(readFfprobeJson('not json')).toBeNull();
  });
});
