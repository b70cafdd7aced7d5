import type { RenderFormat } from '../../../shared/api/renders.js';
import { filterPath } from './filter-escape.js';
import { frameWindow, type Size } from './frame-window.js';

/** One file of a render: its format, where FFmpeg writes it, and its captions' ASS script (null: none). */
export interface RenderOutput {
  format: RenderFormat;
  file: string;
  captions: string | null;
}

/** Everything the encoding command is made of. */
export interface EncodePlan {
  input: string;
  startS: number;
  durationS: number;
  source: Size;
  hasAudio: boolean;
  cropX: number;
  /** The loudness pass's linear gain. */
  gainDb: number;
  fontsDir: string;
  outputs: readonly RenderOutput[];
  /** Whose path rules the filter strings follow (default: this machine's). */
  platform?: NodeJS.Platform;
}

/** The clip alone, from the take: `-ss` before `-i` seeks (frame-exact, since it is decoded), `-t` reads no further. */
const clipInput = (input: string, startS: number, durationS: number) => [
  '-ss',
  startS.toFixed(3),
  '-t',
  durationS.toFixed(3),
  '-i',
  input,
];
const quiet = ['-hide_banner', '-nostdin', '-nostats'];
const progress = ['-progress', 'pipe:1'];

/** H.264 veryfast at crf 20 and AAC, MP4 with its index first (faststart): playable while it downloads. */
const h264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20'];
const aac = ['-c:a', 'aac', '-b:a', '160k'];
const mp4 = ['-movflags', '+faststart', '-f', 'mp4'];

/**
 * The filtergraph: the picture decoded once and split, each format's window cropped and scaled to
 * its size, captions drawn at that size, 4:2:0 for every player; the audio given its gain once,
 * at 48 kHz, and split.
 */
export function filterGraph(plan: EncodePlan): string {
  const { outputs } = plan;
  const platform = plan.platform ?? process.platform;
  const many = outputs.length > 1;
  const sources = outputs.map((_, i) => (many ? `[src${i}]` : '[0:v]'));
  const chains = many ? [`[0:v]split=${outputs.length}${sources.join('')}`] : [];
  outputs.forEach((output, i) => {
    const { crop, output: size } = frameWindow(plan.source, output.format, plan.cropX);
    const whole = crop.width === plan.source.width && crop.height === plan.source.height;
    const scaled = crop.width === size.width && crop.height === size.height;
    const filters = [
      ...(whole ? [] : [`crop=${crop.width}:${crop.height}:${crop.x}:${crop.y}`]),
      ...(scaled ? [] : [`scale=${size.width}:${size.height}`]),
      'setsar=1',
      ...(output.captions === null
        ? []
        : [
            `subtitles=filename=${filterPath(output.captions, platform)}:fontsdir=${filterPath(plan.fontsDir, platform)}`,
          ]),
      'format=yuv420p',
    ];
    chains.push(`${sources[i]}${filters.join(',')}[v${i}]`);
  });
  if (plan.hasAudio) {
    const links = outputs.map((_, i) => `[a${i}]`).join('');
    const split = many ? `,asplit=${outputs.length}` : '';
    chains.push(`[0:a]volume=${plan.gainDb}dB,aresample=48000${split}${links}`);
  }
  return chains.join(';');
}

/** The second pass: every format of the render in one FFmpeg run, progress on stdout. */
export function encodeArgs(plan: EncodePlan): string[] {
  return [
    ...quiet,
    '-y',
    ...progress,
    ...clipInput(plan.input, plan.startS, plan.durationS),
    '-filter_complex',
    filterGraph(plan),
    ...plan.outputs.flatMap((output, i) => [
      '-map',
      `[v${i}]`,
      ...(plan.hasAudio ? ['-map', `[a${i}]`] : []),
      ...h264,
      ...(plan.hasAudio ? aac : []),
      ...mp4,
      output.file,
    ]),
  ];
}

/** The first pass: EBU R128 of the clip's audio (integrated loudness and true peak), nothing written. */
export function measureArgs(clip: { input: string; startS: number; durationS: number }): string[] {
  return [
    ...quiet,
    ...progress,
    ...clipInput(clip.input, clip.startS, clip.durationS),
    '-vn',
    '-af',
    // Frames logged at verbose: only the summary reaches stderr at the default level.
    'ebur128=peak=true:framelog=verbose',
    '-f',
    'null',
    '-',
  ];
}
