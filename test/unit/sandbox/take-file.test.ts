import { describe, expect, it } from 'vitest';
import { simulatedTakeArgs } from '../../../main/sandbox/obs/take-file.js';

describe("the simulated OBS's take file (DESIGN §8, issue #44.4)", () => {
  const args = simulatedTakeArgs('/data/take.mp4', 6.5, { dir: '/fonts', file: 'DejaVuSans-Bold.ttf' });

  it("is 640×360 at 15 fps with a tone, the take's length, made ultrafast", () => {
    expect(args).toContain('testsrc=size=640x360:rate=15:duration=6.500');
    expect(args).toContain('sine=frequency=440:sample_rate=48000:duration=6.500');
    expect(args.join(' ')).toContain('-preset ultrafast');
    expect(args.at(-1)).toBe('/data/take.mp4');
  });

  it('draws a running timecode with the shipped font, named relative to the working folder (nothing to escape)', () => {
    const filter = args[args.indexOf('-vf') + 1]!;
    expect(filter).toMatch(/^drawtext=fontfile=DejaVuSans-Bold\.ttf:/);
    expect(filter).toContain("text='%{pts\\:hms}'");
  });
});
