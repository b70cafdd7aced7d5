import { describe, expect, it } from 'vitest';
import type { KeptSentence } from '../../../main/areas/clips/kept-sentences.js';
import { describeReview, NudgeError, nudgeSpan } from '../../../main/areas/clips/review.js';

/** Ten sentences of 5 s each (0–50 s); sentence 6 is the most quotable. */
const sentences: KeptSentence[] = Array.from({ length: 10 }, (_, i) => ({
  start: i * 5,
  end: i * 5 + 4.5,
  text: i === 6 ? 'um, the one line everyone will quote' : `plain sentence number ${i}`,
  quotability: i === 6 ? 0.9 : 0.1 + i / 100,
}));

describe('review: nudging a suggestion by whole sentences (issue #28.5)', () => {
  const suggested = { from: 2, to: 5 }; // 10–29.5 s

  it('moves in and out by sentences; duration, quote and fit follow', () => {
    const before = describeReview(sentences, 1, suggested, suggested);
    expect(before).toMatchObject({
      startTime: 10,
      endTime: 29.5,
      duration: 19.5,
      sentences: 4,
      nudged: false,
    });
    expect(before.hookQuote).toBe('Plain sentence number 5.');

    const later = nudgeSpan(sentences, suggested, 'out', 2);
    expect(later).toEqual({ from: 2, to: 7 });
    const after = describeReview(sentences, 1, later, suggested);
    expect(after).toMatchObject({ startTime: 10, endTime: 39.5, duration: 29.5, sentences: 6, nudged: true });
    expect(after.hookQuote).toBe('The one line everyone will quote.');
    expect(nudgeSpan(sentences, later, 'in', -2)).toEqual({ from: 0, to: 7 });
  });

  it('refuses a nudge that leaves the transcript, empties the clip or leaves 15–90 s', () => {
    expect(() => nudgeSpan(sentences, suggested, 'in', -3)).toThrow(
      new NudgeError("there are only 2 sentences before the clip's in"),
    );
    expect(() => nudgeSpan(sentences, suggested, 'out', 5)).toThrow(/only 4 sentences after/);
    expect(() => nudgeSpan(sentences, suggested, 'in', 4)).toThrow(/no sentence/);
    expect(() => nudgeSpan(sentences, suggested, 'out', -2)).toThrow(
      'would make the clip 9.5 s long; a clip is 15–90 s',
    );
  });
});
