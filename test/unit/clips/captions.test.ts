import { describe, expect, it } from 'vitest';
import { captionRules } from '../../../shared/caption-rules.js';
import { clipCaptions, toSrt, toVtt } from '../../../main/areas/clips/captions.js';
import type { KeptSentence } from '../../../main/areas/clips/kept-sentences.js';

const sentence = (start: number, end: number, text: string, speaker: string | null = null): KeptSentence => ({
  start,
  end,
  text,
  quotability: 0,
  speaker,
});

const sentences = [
  sentence(700, 705, 'Before the clip.'),
  sentence(754.2, 760.5, 'So here is the thing about pricing.', 'HOST'),
  sentence(
    761,
    775,
    'We raised our prices by forty percent and lost two customers out of three hundred, which nobody on the team expected at all.',
    'Dana',
  ),
  sentence(776, 781.25, 'Fish & chips <b> --> done, costs < 5% and {\\an8} 3 <5 and x>y.', 'Dana'),
  sentence(790, 800, 'After the clip.'),
];
const rules = captionRules();

describe('clip captions re-timed from 0 (DESIGN §6.6)', () => {
  const captions = clipCaptions(sentences, 1, 3, rules);

  it("starts at 0, keeps each sentence's time relative to the clip's in, never runs past its out", () => {
    expect(captions[0]).toMatchObject({ start: 0, text: 'HOST: So here is the thing about pricing.' });
    expect(captions[0]!.end).toBeCloseTo(6.3, 6);
    expect(captions.at(-1)!.end).toBeCloseTo(781.25 - 754.2, 6);
    expect(captions.map((c) => c.text).join(' ')).not.toContain('clip.');
  });

  it('labels the speaker where it changes, and splits a 14 s sentence into cues of at most 7 s', () => {
    const dana = captions.filter((c) => c.start >= 761 - 754.2 - 1e-9);
    expect(dana[0]!.text.startsWith('Dana: We raised')).toBe(true);
    expect(dana.slice(1).every((c) => !c.text.includes('Dana:'))).toBe(true);
    for (const caption of dana) expect(caption.end - caption.start).toBeLessThanOrEqual(7);
  });

  it('writes SRT: comma milliseconds, no arrow, speech that looks like a tag kept out of the tag reader', () => {
    const srt = toSrt(captions);
    expect(
      srt.startsWith('1\n00:00:00,000 --> 00:00:06,300\nHOST: So here is the thing about pricing.\n\n2\n'),
    ).toBe(true);
    const last = srt.trimEnd().split('\n\n').at(-1)!;
    expect(last.replace(/\n/g, ' ')).toContain(
      'Fish & chips <\u200bb> → done, costs < 5% and {\u200b\\an8} 3 <\u200b5 and',
    );
    expect(last).toMatch(/--> 00:00:27,050\n/);
  });

  it('writes WebVTT: the header, dot milliseconds, &, < and > as entities', () => {
    const vtt = toVtt(captions);
    expect(
      vtt.startsWith(
        'WEBVTT\n\n1\n00:00:00.000 --> 00:00:06.300\nHOST: So here is the thing about pricing.\n',
      ),
    ).toBe(true);
    expect(vtt.replace(/\n(?!\n)/g, ' ')).toContain(
      'Fish &amp; chips &lt;b&gt; → done, costs &lt; 5% and {\\an8} 3 &lt;5',
    );
  });

  it('puts captions on a timeline clock (01:00:00,000 for a timeline that starts at 01:00:00:00)', () => {
    expect(toSrt(captions, 3600)).toMatch(/^1\n01:00:00,000 --> 01:00:06,300\n/);
  });
});
