import { renderSizes, type RenderFormat } from '../../../shared/api/renders.js';
import { BURNED_IN_LINE_CHARS, LINE_CHARS, type Caption } from '../../../shared/caption-rules.js';
import { CAPTION_FONT } from './caption-font.js';

/*
 * Captions burned into a render: an ASS script per format, drawn by libass (FFmpeg's `subtitles`
 * filter) at the output's own size, in the font the app ships (caption-font.ts).
 */

/** Lines of 32 characters on the narrow formats (issue #43), the editor's 42 on 16:9. */
export function lineCharsFor(format: RenderFormat): number {
  return format === '16x9' ? LINE_CHARS : BURNED_IN_LINE_CHARS;
}

export interface CaptionStyle {
  fontSize: number;
  outline: number;
  shadow: number;
  marginL: number;
  marginR: number;
  /** From the bottom edge. */
  marginV: number;
}

/**
 * Inside the platforms' safe areas: on 9:16 the apps lay their caption, buttons and progress bar
 * over the bottom fifth, so cues sit above the bottom quarter; on 1:1 and 16:9 a feed covers
 * nothing, and title-safe margins do. Sizes are such that a line of the format's characters fits the
 * width between the margins (DejaVu Sans Bold averages about 0.58 em a character in mixed case).
 */
const styles: Record<RenderFormat, CaptionStyle> = {
  '9x16': { fontSize: 50, outline: 4, shadow: 2, marginL: 64, marginR: 64, marginV: 480 },
  '1x1': { fontSize: 50, outline: 4, shadow: 2, marginL: 64, marginR: 64, marginV: 96 },
  '16x9': { fontSize: 58, outline: 4, shadow: 2, marginL: 192, marginR: 192, marginV: 72 },
};

export function captionStyle(format: RenderFormat): CaptionStyle {
  return styles[format];
}

/** h:mm:ss.cc, as ASS times are written. */
function assTime(seconds: number): string {
  // Through toFixed: 2.345 * 100 is 234.49999999999997 in binary.
  const centis = Math.round(Number((seconds * 100).toFixed(6)));
  const h = Math.floor(centis / 360_000);
  const m = Math.floor(centis / 6000) % 60;
  const s = Math.floor(centis / 100) % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${h}:${pad(m)}:${pad(s)}.${pad(centis % 100)}`;
}

/**
 * A cue's text as libass reads it: `{…}` would be an override block and `\N`, `\n`, `\h` line
 * breaks or hard spaces, so braces are escaped and such a backslash is followed by a word joiner;
 * the cue's own line breaks become `\N`.
 */
export function assText(text: string): string {
  return text
    .replace(/\\(?=[Nnh])/g, '\\\u2060')
    .replace(/[{}]/g, (brace) => `\\${brace}`)
    .replace(/\r?\n/g, '\\N');
}

/** The ASS script of a format's captions (times from the clip's in). */
export function assScript(captions: readonly Caption[], format: RenderFormat): string {
  const { width, height } = renderSizes[format];
  const style = styles[format];
  const white = '&H00FFFFFF';
  const black = '&H00000000';
  const shade = '&H80000000';
  const styleLine = [
    'Default',
    CAPTION_FONT.family,
    style.fontSize,
    white,
    white,
    black,
    shade,
    -1, // bold
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    1, // outline and shadow, no box
    style.outline,
    style.shadow,
    2, // bottom centre
    style.marginL,
    style.marginR,
    style.marginV,
    1,
  ].join(',');
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    // Smart wrapping: a line wider than the safe area (capitals, long words) wraps instead of being cut.
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: ${styleLine}`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...captions.map(
      (cue) => `Dialogue: 0,${assTime(cue.start)},${assTime(cue.end)},Default,,0,0,0,,${assText(cue.text)}`,
    ),
    '',
  ].join('\n');
}
