import { describe, expect, it } from 'vitest';
import { clipCaptions, toSrt, toVtt } from '../../../main/areas/clips/captions.js';
import type { KeptSentence } from '../../../main/areas/clips/kept-sentences.js';

const sentence = (start: number, end: number, text: string): KeptSentence => ({
  start,
  end,
  text,
  quotability: 0,
});

const sentences = [
  sentence(700, 705, 'Before the clip.'),
  sentence(754.2, 760.5, 'So here is the thing about pricing.'),
  sentence(
    761,
    775,
    'We raised our prices by forty percent and lost two customers out of three hundred, which nobody on the team expected at all.',
  ),
  sentence(776, 781.25, 'Fish & chips <b> --> done.'),
  sentence(790, 800, 'After the clip.'),
];

describe('clip captions re-timed from 0 (DESIGN §6.6)', () => {
  const captions = clipCaptions(sentences, 1, 3);

  it("starts at 0 and keeps each sentence's time relative to the clip's in", () => {
    expect(captions[0]).toMatchObject({ start: 0, text: 'So here is the thing about pricing.' });
    expect(captions[0]!.end).toBeCloseTo(6.3, 6);
    expect(captions.at(-1)!.start).toBeCloseTo(776 - 754.2, 6);
    expect(captions.at(-1)!.end).toBeCloseTo(781.25 - 754.2, 6);
    expect(captions.map((c) => c.text).join(' ')).not.toContain('clip.');
  });

  it('splits a long sentence into captions of two lines at most 42 characters, its time shared', () => {
    const long = captions.slice(1, -1);
    expect(long.length).toBe(2);
    for (const caption of long) {
      const captionLines = caption.text.split('\n');
      expect(captionLines.length).toBeLessThanOrEqual(2);
      for (const line of captionLines) expect(line.length).toBeLessThanOrEqual(42);
    }
    expect(long[0]!.start).toBeCloseTo(761 - 754.2, 6);
    expect(long[0]!.end).toBeCloseTo(long[1]!.start, 6);
    expect(long[1]!.end).toBeCloseTo(775 - 754.2, 6);
  });

  it('writes SRT: numbered cues, comma milliseconds, text unescaped but never an arrow', () => {
    const srt = toSrt(captions);
    expect(
      srt.startsWith(
        '1\n00:00:00,000 --> 00:00:06,300\nSo here is the thing about pricing.\n\n2\n00:00:06,800 --> ',
      ),
    ).toBe(true);
    expect(srt).toContain('\n00:00:21,800 --> 00:00:27,050\nFish & chips <b> → done.\n');
  });

  it('writes WebVTT: the header, dot milliseconds, &, < and > as entities', () => {
    const vtt = toVtt(captions);
    expect(
      vtt.startsWith('WEBVTT\n\n1\n00:00:00.000 --> 00:00:06.300\nSo here is the thing about pricing.\n'),
    ).toBe(true);
    expect(vtt).toContain('\n00:00:21.800 --> 00:00:27.050\nFish &amp; chips &lt;b&gt; → done.\n');
  });
});
