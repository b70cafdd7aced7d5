import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BURNED_IN_LINE_CHARS,
  buildCaptions,
  captionRules,
  captionStats,
  type CaptionSentence,
} from '../../../shared/caption-rules.js';

const say = (start: number, end: number, text: string, speaker: string | null = null): CaptionSentence => ({
  start,
  end,
  text,
  speaker,
});

/** The words of captions in order, speaker labels left out. */
const wordsOf = (texts: string[], labels: string[] = []) =>
  texts
    .join(' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !labels.includes(word));
const lines = (text: string) => text.split('\n');

describe('caption rules (issue #39.3)', () => {
  const rules = captionRules();

  it('joins a one-word sentence to its neighbour: no cue under 5/6 s', () => {
    const sentences = [
      say(0, 2.4, 'We tried it twice.'),
      say(2.4, 2.64, 'Yes.'),
      say(2.7, 6, 'And the second time it worked.'),
    ];
    const captions = buildCaptions(sentences, rules);
    for (const caption of captions) expect(caption.end - caption.start).toBeGreaterThanOrEqual(5 / 6);
    expect(wordsOf(captions.map((c) => c.text))).toEqual(wordsOf(sentences.map((s) => s.text)));
    expect(captions.find((c) => c.text.includes('Yes.'))!.text).not.toBe('Yes.');
  });

  it('at most two lines of 42 characters, 32 for burned-in captions; a long word or URL is broken', () => {
    const url = 'https://studio-bridge.example/episodes/52/show-notes-and-links';
    const sentences = [
      say(0, 12, `The link is ${url} and it has every source we named in this episode of the show.`),
    ];
    for (const lineChars of [42, BURNED_IN_LINE_CHARS]) {
      const captions = buildCaptions(sentences, captionRules({ lineChars }));
      for (const caption of captions) {
        expect(lines(caption.text).length).toBeLessThanOrEqual(2);
        for (const line of lines(caption.text)) expect(line.length).toBeLessThanOrEqual(lineChars);
      }
      expect(captions.map((c) => c.text.replace(/\n/g, '')).join('')).toContain(url);
    }
  });

  it('no cue over 7 s; cues in order, never overlapping, inside the span', () => {
    const long = say(
      0,
      30,
      'This is a very long and slow sentence that goes on and on about the pricing of our product for a full thirty seconds.',
    );
    const captions = buildCaptions([long], rules);
    let previousEnd = 0;
    for (const caption of captions) {
      expect(caption.end - caption.start).toBeLessThanOrEqual(7 + 1e-9);
      expect(caption.start).toBeGreaterThanOrEqual(previousEnd - 1e-9);
      previousEnd = caption.end;
    }
    expect(previousEnd).toBeLessThanOrEqual(30);
  });

  it('at most 20 characters a second where a gap allows (up to 0.5 s more); faster speech is counted', () => {
    // 35 characters said in 1.5 s, then 2 s of silence: shown 1.75 s (20 cps) by taking 0.25 s of the gap.
    const quick = 'Thirty-five characters said fast...';
    const slowEnough = buildCaptions([say(0, 1.5, quick), say(3.5, 6, 'Then more.')], rules);
    expect(slowEnough[0]!.end).toBeCloseTo(quick.length / 20, 6);
    expect(captionStats(slowEnough, rules).overCps).toBe(0);
    // 80 characters in 2 s with no gap after: over the limit, and counted.
    const fast = buildCaptions(
      [
        say(0, 2, 'Eighty characters of speech said in two seconds flat, far faster than reading.'),
        say(2, 5, 'And then the next sentence.'),
      ],
      rules,
    );
    expect(captionStats(fast, rules).overCps).toBeGreaterThanOrEqual(1);
  });

  it('joins fast speech to the sentence said right after it when together they read at 20 cps', () => {
    const captions = buildCaptions(
      [say(0, 1, 'Thirty-two characters in 1 second.'), say(1, 6, 'Then a slow sentence follows.')],
      rules,
    );
    expect(captions).toHaveLength(1);
    expect(captionStats(captions, rules).overCps).toBe(0);
  });

  it('keeps speaker labels as a prefix when the speaker changes (an option, on by default)', () => {
    const sentences = [
      say(0, 3, 'Welcome back to the show.', 'HOST'),
      say(3, 6, 'Today we talk about prices.', 'HOST'),
      say(6, 9, 'Thanks for having me here.', 'Dana'),
      say(9, 12, 'It is good to be back.', 'Dana'),
    ];
    const captions = buildCaptions(sentences, rules);
    expect(captions.map((c) => c.text.replace(/\n/g, ' '))).toEqual([
      'HOST: Welcome back to the show.',
      'Today we talk about prices.',
      'Dana: Thanks for having me here.',
      'It is good to be back.',
    ]);
    const unlabelled = buildCaptions(sentences, captionRules({ speakerLabels: false }));
    expect(unlabelled.map((c) => c.text).join(' ')).not.toMatch(/HOST:|Dana:/);
  });

  it('holds for any speech: every word kept in order, lines and cue lengths within the rules', () => {
    const word = fc.stringMatching(/^[A-Za-z<>%&]{1,14}$/);
    const sentence = fc.record({
      words: fc.array(word, { minLength: 1, maxLength: 25 }),
      secondsPerWord: fc.double({ min: 0.25, max: 0.6, noNaN: true }),
      gap: fc.double({ min: 0, max: 2, noNaN: true }),
      speaker: fc.constantFrom('HOST', 'Dana', null),
    });
    fc.assert(
      fc.property(
        fc.array(sentence, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(42, 32),
        (spec, lineChars) => {
          let at = 0;
          const sentences = spec.map((s) => {
            const start = at + s.gap;
            at = start + s.words.length * s.secondsPerWord;
            return say(start, at, s.words.join(' '), s.speaker);
          });
          const rulesHere = captionRules({ lineChars });
          const captions = buildCaptions(sentences, rulesHere);
          const labels = ['HOST:', 'Dana:'];
          expect(
            wordsOf(
              captions.map((c) => c.text),
              labels,
            ).join(''),
          ).toBe(wordsOf(sentences.map((s) => s.text)).join(''));
          let previousEnd = -Infinity;
          for (const caption of captions) {
            expect(lines(caption.text).length).toBeLessThanOrEqual(2);
            for (const line of lines(caption.text)) expect(line.length).toBeLessThanOrEqual(lineChars);
            expect(caption.end - caption.start).toBeLessThanOrEqual(7 + 1e-9);
            expect(caption.end - caption.start).toBeGreaterThanOrEqual(5 / 6 - 1e-9);
            expect(caption.start).toBeGreaterThanOrEqual(previousEnd - 1e-9);
            previousEnd = caption.end;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
