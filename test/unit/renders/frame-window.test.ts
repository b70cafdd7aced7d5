import { describe, expect, it } from 'vitest';
import { frameWindow, upscaleNote } from '../../../main/areas/renders/frame-window.js';

const hd = { width: 1920, height: 1080 };

describe('frameWindow: the part of the take each format shows', () => {
  it('9:16 from a 1080p take: a 608×1080 window, centred by default, upscaled 1.78× to 1080×1920', () => {
    expect(frameWindow(hd, '9x16', 0.5)).toEqual({
      crop: { width: 608, height: 1080, x: 656, y: 0 },
      output: { width: 1080, height: 1920 },
      upscale: 1.78,
    });
  });

  it('moves the window across the picture: 0 at the left edge, 1 at the right', () => {
    expect(frameWindow(hd, '9x16', 0).crop.x).toBe(0);
    expect(frameWindow(hd, '9x16', 1).crop.x).toBe(1312);
    expect(frameWindow(hd, '9x16', 0.25).crop.x).toBe(328);
  });

  it('1:1 from a 1080p take: 1080×1080, no upscale', () => {
    expect(frameWindow(hd, '1x1', 0.5)).toEqual({
      crop: { width: 1080, height: 1080, x: 420, y: 0 },
      output: { width: 1080, height: 1080 },
      upscale: 1,
    });
  });

  it('16:9 from a 16:9 take: the whole picture', () => {
    expect(frameWindow(hd, '16x9', 0)).toEqual({
      crop: { width: 1920, height: 1080, x: 0, y: 0 },
      output: { width: 1920, height: 1080 },
      upscale: 1,
    });
  });

  it('keeps even sizes and offsets (4:2:0 chroma) from an odd source', () => {
    const window = frameWindow({ width: 640, height: 360 }, '9x16', 0.5);
    expect(window.crop).toEqual({ width: 202, height: 360, x: 220, y: 0 });
    expect(window.upscale).toBe(5.33);
  });

  it('16:9 from a portrait take: a band across its middle', () => {
    expect(frameWindow({ width: 1080, height: 1920 }, '16x9', 0.5).crop).toEqual({
      width: 1080,
      height: 608,
      x: 0,
      y: 656,
    });
  });
});

describe('upscaleNote', () => {
  it('says when a window is upscaled, and by how much', () => {
    expect(upscaleNote('9x16', hd, frameWindow(hd, '9x16', 0.5))).toBe(
      '9:16: a 608×1080 window of the 1920×1080 take is upscaled 1.78× to 1080×1920',
    );
  });

  it('says nothing when the window is shown at its size or smaller', () => {
    expect(upscaleNote('1x1', hd, frameWindow(hd, '1x1', 0.5))).toBeNull();
    const uhd = { width: 3840, height: 2160 };
    expect(upscaleNote('9x16', uhd, frameWindow(uhd, '9x16', 0.5))).toBeNull();
  });
});
