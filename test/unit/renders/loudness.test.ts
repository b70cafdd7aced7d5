import { describe, expect, it } from 'vitest';
import { linearGain, readEbur128Summary, TARGET_LUFS } from '../../../main/areas/renders/loudness.js';

/** The end of FFmpeg's stderr after `-af ebur128=peak=true:framelog=verbose` (5.1 and 4.1 alike). */
const summary = (integrated: string, peak: string) => `size=N/A time=00:00:02.99 bitrate=N/A speed=12.8x
video:0kB audio:562kB subtitle:0kB other streams:0kB global headers:0kB muxing overhead: unknown
[Parsed_ebur128_0 @ 0x557e270c29c0] Summary:

  Integrated loudness:
    I:         ${integrated} LUFS
    Threshold: -31.8 LUFS

  Loudness range:
    LRA:        20.0 LU
    Threshold: -41.8 LUFS
    LRA low:   -41.8 LUFS
    LRA high:  -21.8 LUFS

  True peak:
    Peak:      ${peak} dBFS
`;

describe('readEbur128Summary', () => {
  it('reads the integrated loudness and the true peak', () => {
    expect(readEbur128Summary(summary('-21.8', '-20.8'))).toEqual({
      integratedLufs: -21.8,
      truePeakDbfs: -20.8,
    });
  });

  it('reads silence (-70 LUFS, -inf dBFS) and says null where there is no summary', () => {
    expect(readEbur128Summary(summary('-70.0', '-inf'))).toEqual({
      integratedLufs: -70,
      truePeakDbfs: null,
    });
    expect(readEbur128Summary('Conversion failed!')).toEqual({ integratedLufs: null, truePeakDbfs: null });
  });
});

describe('linearGain (EBU R128 at −14 LUFS, one gain for the whole clip)', () => {
  it('raises a quiet clip to the target', () => {
    expect(TARGET_LUFS).toBe(-14);
    expect(linearGain({ integratedLufs: -21.8, truePeakDbfs: -20.8 })).toEqual({
      gainDb: 7.8,
      expectedLufs: -14,
      heldBy: null,
    });
  });

  it('lowers a loud clip', () => {
    expect(linearGain({ integratedLufs: -9.5, truePeakDbfs: -0.2 })).toEqual({
      gainDb: -4.5,
      expectedLufs: -14,
      heldBy: null,
    });
  });

  it('stops where the peaks would pass −1 dBTP: a linear gain never clips', () => {
    expect(linearGain({ integratedLufs: -20, truePeakDbfs: -3 })).toEqual({
      gainDb: 2,
      expectedLufs: -18,
      heldBy: 'peak',
    });
  });

  it('leaves silence as it is, and a clip without audio', () => {
    expect(linearGain({ integratedLufs: -70, truePeakDbfs: null })).toEqual({
      gainDb: 0,
      expectedLufs: null,
      heldBy: 'silence',
    });
    expect(linearGain({ integratedLufs: null, truePeakDbfs: null })).toEqual({
      gainDb: 0,
      expectedLufs: null,
      heldBy: 'silence',
    });
  });
});
