import { renderSizes, type RenderFormat } from '../../../shared/api/renders.js';

export interface Size {
  width: number;
  height: number;
}

/** The part of the take a format shows (crop), the size it is scaled to, and by how much. */
export interface FrameWindow {
  crop: Size & { x: number; y: number };
  output: Size;
  /** Output over window, two decimals: above 1 the window is enlarged. */
  upscale: number;
}

/** Even: 4:2:0 chroma has one sample for each 2×2 pixels. */
const even = (value: number) => 2 * Math.round(value / 2);

/**
 * The largest window of the format's shape inside the take's picture: across its full height when
 * the take is wider (its horizontal place set by `cropX`, 0 left to 1 right), else across its full
 * width, centred.
 */
export function frameWindow(source: Size, format: RenderFormat, cropX: number): FrameWindow {
  const output = renderSizes[format];
  const aspect = output.width / output.height;
  const wider = source.width / source.height > aspect;
  const width = wider ? Math.min(source.width, even(source.height * aspect)) : source.width;
  const height = wider ? source.height : Math.min(source.height, even(source.width / aspect));
  return {
    crop: {
      width,
      height,
      x: even((source.width - width) * cropX),
      y: even((source.height - height) / 2),
    },
    output: { width: output.width, height: output.height },
    upscale: Math.round((output.height / height) * 100) / 100,
  };
}

/** "9:16: a 608×1080 window of the 1920×1080 take is upscaled 1.78× to 1080×1920"; null when not enlarged. */
export function upscaleNote(format: RenderFormat, source: Size, window: FrameWindow): string | null {
  if (window.upscale <= 1) return null;
  const { crop, output } = window;
  const what =
    crop.width === source.width && crop.height === source.height
      ? `the ${source.width}×${source.height} take`
      : `a ${crop.width}×${crop.height} window of the ${source.width}×${source.height} take`;
  return `${renderSizes[format].label}: ${what} is upscaled ${window.upscale}× to ${output.width}×${output.height}`;
}
