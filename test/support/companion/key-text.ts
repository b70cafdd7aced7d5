/**
 * How Companion 4.3 lays a button's text out on a 72-px key, for checking preset texts without
 * Companion (its renderer, companion/lib/Graphics: Renderer.ts and Image.ts drawAlignedText):
 * - under the top bar the text box is 68 × 57 px (x 2, y 15);
 * - the font is Companion-sans, which is Arimo Regular: metric-compatible with Arial, so Arial's
 *   advance widths give each line's width; a line is ascent + descent = 1.117 em high;
 * - `\n` in the text is a line break; a line too wide is cut at the longest part that fits, moved
 *   back to its last space, `-`, `_`, `:` or `~` (the space dropped, the others kept on the line),
 *   and in the middle of a word when there is none ("MAR" / "K");
 * - lines that do not fit in the box's height are not drawn.
 */

export const KEY_TEXT_BOX = { width: 68, height: 57 } as const;
const LINE_HEIGHT_EM = 1.117;

/** Arial's advance widths in 1/1000 em, printable ASCII from the space (0x20) to `~` (0x7e). */
// prettier-ignore
const ASCII_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space … /
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 … ?
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ … O
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P … _
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` … o
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p … ~
];
/** Anything else (a symbol from a fallback font): a full em, so it is never under-counted. */
const OTHER_WIDTH = 1000;

export function textWidth(text: string, size: number): number {
  let thousandths = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    thousandths += code >= 0x20 && code <= 0x7e ? ASCII_WIDTHS[code - 0x20]! : OTHER_WIDTH;
  }
  return (thousandths * size) / 1000;
}

/** Where a line ended: the text's own `\n`, a space, after one of `-_:~`, or inside a word. */
export type LineEnd = 'newline' | 'space' | '-' | '_' | ':' | '~' | 'mid-word' | 'end';

export interface KeyLayout {
  lines: Array<{ text: string; end: LineEnd }>;
  /** Every line is drawn (they fit the box's height). */
  fits: boolean;
}

const BREAK_AFTER = new Set(['-', '_', ':', '~']);

export function layoutKeyText(text: string, size: number): KeyLayout {
  const paragraphs = text.trim().replaceAll('\\n', '\n').split('\n');
  const lines: KeyLayout['lines'] = [];
  paragraphs.forEach((paragraph, index) => {
    let rest = [...paragraph];
    const last = index === paragraphs.length - 1;
    for (;;) {
      if (rest[0] === ' ') rest = rest.slice(1);
      if (textWidth(rest.join(''), size) <= KEY_TEXT_BOX.width) {
        lines.push({ text: rest.join(''), end: last ? 'end' : 'newline' });
        return;
      }
      let fit = 1;
      while (textWidth(rest.slice(0, fit + 1).join(''), size) <= KEY_TEXT_BOX.width) fit += 1;
      let cut = -1;
      for (let i = fit - 1; i > 0; i -= 1) {
        if (rest[i] === ' ' || BREAK_AFTER.has(rest[i]!)) {
          cut = i;
          break;
        }
      }
      if (cut === -1) {
        lines.push({ text: rest.slice(0, fit).join(''), end: 'mid-word' });
        rest = rest.slice(fit);
      } else if (rest[cut] === ' ') {
        lines.push({ text: rest.slice(0, cut).join(''), end: 'space' });
        rest = rest.slice(cut + 1);
      } else {
        lines.push({ text: rest.slice(0, cut + 1).join(''), end: rest[cut] as LineEnd });
        rest = rest.slice(cut + 1);
      }
    }
  });
  return { lines, fits: lines.length * size * LINE_HEIGHT_EM <= KEY_TEXT_BOX.height };
}
