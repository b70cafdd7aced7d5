import { describe, expect, it } from 'vitest';
import { ProgressReader, secondsLeft } from '../../../main/areas/renders/progress.js';

/** FFmpeg's `-progress pipe:1`: key=value lines, each block ending with `progress=continue|end`. */
const block = (outTime: Record<string, string>, progress = 'continue') =>
  [
    'frame=42',
    'fps=21.0',
    'bitrate=N/A',
    'total_size=N/A',
    ...Object.entries(outTime).map(([key, value]) => `${key}=${value}`),
    'dup_frames=0',
    'drop_frames=0',
    'speed=0.71x',
    `progress=${progress}`,
    '',
  ].join('\n');

describe('ProgressReader', () => {
  it('reads out_time_us (FFmpeg 5) as seconds of output', () => {
    const reader = new ProgressReader();
    const updates = reader.push(block({ out_time_us: '1500000', out_time_ms: '1500000' }));
    expect(updates).toEqual([{ outS: 1.5, speed: 0.71, end: false }]);
  });

  it('reads a build that writes only out_time_ms (in microseconds, as FFmpeg 4.1 does) or out_time', () => {
    expect(new ProgressReader().push(block({ out_time_ms: '2500000' }))).toEqual([
      { outS: 2.5, speed: 0.71, end: false },
    ]);
    expect(new ProgressReader().push(block({ out_time: '00:01:02.250000' }))).toEqual([
      { outS: 62.25, speed: 0.71, end: false },
    ]);
  });

  it('joins lines cut across chunks and reports each block once, the last as the end', () => {
    const reader = new ProgressReader();
    const text = block({ out_time_us: '1000000' }) + block({ out_time_us: '3000000' }, 'end');
    const cut = 37;
    const updates = [...reader.push(text.slice(0, cut)), ...reader.push(text.slice(cut))];
    expect(updates).toEqual([
      { outS: 1, speed: 0.71, end: false },
      { outS: 3, speed: 0.71, end: true },
    ]);
  });

  it('reports nothing for a block before the first frame (N/A), and null speed when unknown', () => {
    const reader = new ProgressReader();
    expect(reader.push(block({ out_time_us: 'N/A', out_time: 'N/A' }))).toEqual([]);
    const noSpeed = block({ out_time_us: '500000' }).replace('speed=0.71x', 'speed=N/A');
    expect(reader.push(noSpeed)).toEqual([{ outS: 0.5, speed: null, end: false }]);
  });

  it('keeps no more than one unfinished line, whatever FFmpeg writes', () => {
    const reader = new ProgressReader();
    reader.push('x'.repeat(100_000));
    expect(reader.buffered()).toBeLessThanOrEqual(4096);
  });
});

describe('secondsLeft', () => {
  it('is the time so far times what is left over what is done', () => {
    expect(secondsLeft(0.25, 30_000)).toBe(90);
    expect(secondsLeft(0.5, 10_000)).toBe(10);
  });

  it('is unknown before anything is done, and 0 at the end', () => {
    expect(secondsLeft(0, 5_000)).toBeNull();
    expect(secondsLeft(0.005, 100)).toBeNull();
    expect(secondsLeft(1, 60_000)).toBe(0);
  });
});
