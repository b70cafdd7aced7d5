import { describe, expect, it } from 'vitest';
import { BURNED_IN_LINE_CHARS, LINE_CHARS } from '../../../shared/caption-rules.js';
import {
  assScript,
  assText,
  captionStyle,
  lineCharsFor,
} from '../../../main/areas/renders/burned-captions.js';
import { CAPTION_FONT } from '../../../main/areas/renders/caption-font.js';

describe('captions burned into a render (ASS for libass)', () => {
  it('cuts lines of 32 characters for 9:16 and 1:1, 42 for 16:9 (the editor rules)', () => {
    expect(lineCharsFor('9x16')).toBe(BURNED_IN_LINE_CHARS);
    expect(lineCharsFor('1x1')).toBe(BURNED_IN_LINE_CHARS);
    expect(lineCharsFor('16x9')).toBe(LINE_CHARS);
  });

  it('places them inside the safe area: 9:16 above the bottom quarter the apps cover', () => {
    const portrait = captionStyle('9x16');
    expect(portrait.marginV).toBeGreaterThanOrEqual(1920 * 0.22);
    expect(portrait.marginL).toBeGreaterThanOrEqual(1080 * 0.05);
    expect(portrait.marginR).toBe(portrait.marginL);
    // Big enough to read on a phone, small enough for 32 characters across the safe width.
    expect(portrait.fontSize).toBeGreaterThanOrEqual(44);
    expect(portrait.fontSize * 0.58 * BURNED_IN_LINE_CHARS).toBeLessThanOrEqual(
      1080 - portrait.marginL - portrait.marginR,
    );
    const landscape = captionStyle('16x9');
    expect(landscape.fontSize * 0.58 * LINE_CHARS).toBeLessThanOrEqual(
      1920 - landscape.marginL - landscape.marginR,
    );
    expect(landscape.marginV).toBeGreaterThanOrEqual(1080 * 0.05);
  });

  it('writes a script at the output size, bold white with a dark outline, in the shipped font', () => {
    const script = assScript(
      [
        { start: 0, end: 2.345, text: 'HOST: Our costs stayed under\nfive percent of sales.' },
        { start: 61.5, end: 64, text: 'And margins?' },
      ],
      '9x16',
    );
    expect(script).toContain('PlayResX: 1080\nPlayResY: 1920\n');
    expect(script).toContain('ScaledBorderAndShadow: yes');
    const style = script.split('\n').find((line) => line.startsWith('Style: '))!;
    const fields = style.slice('Style: '.length).split(',');
    expect(fields[1]).toBe(CAPTION_FONT.family);
    expect(fields[3]).toBe('&H00FFFFFF'); // white
    expect(fields[5]).toBe('&H00000000'); // black outline
    expect(fields[7]).toBe('-1'); // bold
    expect(fields[18]).toBe('2'); // bottom centre
    expect(script).toContain(
      'Dialogue: 0,0:00:00.00,0:00:02.35,Default,,0,0,0,,HOST: Our costs stayed under\\Nfive percent of sales.\n',
    );
    expect(script).toContain('Dialogue: 0,0:01:01.50,0:01:04.00,Default,,0,0,0,,And margins?\n');
  });

  it('keeps speech that looks like an override block or an escape as it was said', () => {
    expect(assText('costs {were} low')).toBe('costs \\{were\\} low');
    // A backslash before N, n or h would break the line or make a hard space: a word joiner keeps it.
    expect(assText('C:\\New folder\\hello')).toBe('C:\\\u2060New folder\\\u2060hello');
    expect(assText('a \\ b')).toBe('a \\ b');
  });
});
