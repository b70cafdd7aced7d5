import { describe, expect, it } from 'vitest';
import {
  encodeArgs,
  filterGraph,
  measureArgs,
  type EncodePlan,
} from '../../../main/areas/renders/ffmpeg-args.js';

const plan = (overrides: Partial<EncodePlan> = {}): EncodePlan => ({
  input: '/videos/20261201_Episode_52.mkv',
  startS: 754.2,
  durationS: 31.25,
  source: { width: 1920, height: 1080 },
  hasAudio: true,
  cropX: 0.5,
  gainDb: 7.8,
  fontsDir: '/app/fonts',
  outputs: [
    { format: '9x16', file: '/data/renders/rn_1/9x16.mp4.part', captions: '/data/renders/rn_1/9x16.ass' },
    { format: '16x9', file: '/data/renders/rn_1/16x9.mp4.part', captions: null },
  ],
  platform: 'linux',
  ...overrides,
});

describe('the render command', () => {
  it('decodes once and splits: each format cropped, scaled, captioned, 4:2:0; one gain for the audio', () => {
    expect(filterGraph(plan())).toBe(
      [
        '[0:v]split=2[src0][src1]',
        '[src0]crop=608:1080:656:0,scale=1080:1920,setsar=1,subtitles=filename=/data/renders/rn_1/9x16.ass:fontsdir=/app/fonts,format=yuv420p[v0]',
        '[src1]setsar=1,format=yuv420p[v1]',
        '[0:a]volume=7.8dB,aresample=48000,asplit=2[a0][a1]',
      ].join(';'),
    );
  });

  it('escapes the paths it puts in the graph', () => {
    const graph = filterGraph(
      plan({
        outputs: [{ format: '1x1', file: '/d/1x1.mp4.part', captions: "/data dir/it's, here/1x1.ass" }],
        fontsDir: 'C:\\Program Files\\Studio Bridge\\fonts',
        platform: 'win32',
      }),
    );
    expect(graph).toContain(
      "subtitles=filename=/data dir/it\\\\\\'s\\, here/1x1.ass:fontsdir=C\\\\:/Program Files/Studio Bridge/fonts,",
    );
  });

  it('has no audio chain for a take without audio', () => {
    const graph = filterGraph(plan({ hasAudio: false, outputs: [plan().outputs[1]!] }));
    expect(graph).toBe('[0:v]setsar=1,format=yuv420p[v0]');
  });

  it('seeks the input to the clip, reads only the clip, writes MP4 parts with progress on stdout', () => {
    const args = encodeArgs(plan());
    const at = (flag: string, from = 0) => args.indexOf(flag, from);
    expect(args.slice(0, 6)).toEqual(['-hide_banner', '-nostdin', '-nostats', '-y', '-progress', 'pipe:1']);
    expect(args.slice(at('-ss'), at('-i') + 2)).toEqual([
      '-ss',
      '754.200',
      '-t',
      '31.250',
      '-i',
      '/videos/20261201_Episode_52.mkv',
    ]);
    const first = at('-map');
    const second = at('-map', at('/data/renders/rn_1/9x16.mp4.part'));
    const output = (from: number, to: number) => args.slice(from, to);
    const h264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20'];
    const aac = ['-c:a', 'aac', '-b:a', '160k'];
    const mp4 = ['-movflags', '+faststart', '-f', 'mp4'];
    expect(output(first, at('/data/renders/rn_1/9x16.mp4.part') + 1)).toEqual([
      '-map',
      '[v0]',
      '-map',
      '[a0]',
      ...h264,
      ...aac,
      ...mp4,
      '/data/renders/rn_1/9x16.mp4.part',
    ]);
    expect(output(second, args.length)).toEqual([
      '-map',
      '[v1]',
      '-map',
      '[a1]',
      ...h264,
      ...aac,
      ...mp4,
      '/data/renders/rn_1/16x9.mp4.part',
    ]);
    expect(args[at('-filter_complex') + 1]).toBe(filterGraph(plan()));
  });

  it('measures the loudness of the clip alone, audio only, with progress', () => {
    expect(measureArgs({ input: '/videos/a.mkv', startS: 12, durationS: 30 })).toEqual([
      '-hide_banner',
      '-nostdin',
      '-nostats',
      '-progress',
      'pipe:1',
      '-ss',
      '12.000',
      '-t',
      '30.000',
      '-i',
      '/videos/a.mkv',
      '-vn',
      '-af',
      'ebur128=peak=true:framelog=verbose',
      '-f',
      'null',
      '-',
    ]);
  });
});
