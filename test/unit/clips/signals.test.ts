import { describe, expect, it } from 'vitest';
import { cleanQuote } from '../../../main/areas/clips/quote.js';
import type { Sentence } from '../../../main/areas/clips/sentences.js';
import { sentenceSignals } from '../../../main/areas/clips/signals.js';

const sentence = (text: string, reactions = 0): Sentence => ({
  index: 0,
  text,
  start: 0,
  end: 5,
  speaker: null,
  words: text.split(/\s+/).length,
  reactions,
});
const signals = (text: string, reactions = 0) => sentenceSignals(sentence(text, reactions));

describe('hook detection', () => {
  it('finds hook phrases, whatever the apostrophe', () => {
    const s = signals('Here’s the thing: nobody talks about the biggest mistake founders make.');
    expect(s.hooks.map((h) => h.phrase)).toEqual([
      "here's the thing",
      'nobody talks about',
      'the biggest',
      'biggest mistake',
    ]);
    expect(s.hook).toBe(1);
  });
  it('finds questions, numbers with units, contrast and open loops', () => {
    expect(signals('Why do most shows stall after episode ten?').question).toBe(true);
    const numbers = signals(
      'We went from $19 to 59 dollars and churn fell from six percent to 2%, in twenty-two days.',
    );
    expect(numbers.numbers).toEqual(
      expect.arrayContaining(['$19', '59 dollars', '2%', 'six percent', 'twenty-two days']),
    );
    expect(numbers.number).toBe(1);
    expect(signals('It was a four-day week.').number).toBeLessThan(0.2);
    const contrast = signals('Everyone thinks more episodes help, but it turns out the opposite is true.');
    expect(contrast.contrasts.map((c) => c.phrase)).toEqual(
      expect.arrayContaining(['everyone thinks', 'but', 'turns out', 'the opposite']),
    );
    expect(contrast.contrast).toBe(1);
    expect(
      signals("Here's why, and wait until you hear what happened next.").openLoops.map((o) => o.phrase),
    ).toEqual(["here's why", 'wait until', 'what happened next']);
  });
  it('does not match phrases inside other words', () => {
    expect(signals('The butler sponsored nothing; nineteen people came.').contrasts).toEqual([]);
    expect(signals('Nineteen people came.').numbers).toEqual(['nineteen people']);
  });
});

describe('emotion analysis (AFINN via the sentiment package)', () => {
  it('scores strong words, whatever their sign, and counts audience reactions', () => {
    const sad = signals('I cried, I was devastated and ashamed, it was terrible.');
    expect(sad.sentiment.score).toBeLessThan(0);
    expect(sad.emotionWords).toEqual(expect.arrayContaining(['terrible', 'cried', 'devastated']));
    expect(sad.emotion).toBeGreaterThan(0.8);
    expect(signals('The meeting is on Tuesday at the office.').emotion).toBe(0);
    expect(signals('The meeting is on Tuesday.', 2).emotion).toBeGreaterThan(0.5);
  });
  it('does not read the filler "like" or a thank-you as feeling', () => {
    expect(signals('It was like, you know, like a thing, thanks.').emotionPoints).toBe(0);
  });
});

describe('filler', () => {
  it('marks greetings, sponsor reads and housekeeping', () => {
    for (const text of [
      'Hey everyone, welcome back to the show.',
      'This episode is brought to you by Acme, use code SHOW for twenty percent off.',
      'Please subscribe and leave a review, the links are in the show notes.',
      "That's all for this week, see you next time.",
    ]) {
      expect(signals(text).filler, text).toBeGreaterThanOrEqual(0.9);
    }
    expect(signals('Pricing is a signal that you are serious.').filler).toBe(0);
  });
});

describe('quotability', () => {
  it('prefers a short, strong, stand-alone line over a rambling or dangling one', () => {
    const strong = signals('The truth is, nobody remembers your logo, they remember how you made them feel.');
    const rambling = signals(
      'And um, yeah, so that was, uh, kind of the thing we did then, I guess, with the, um, stuff.',
    );
    const tiny = signals('Yes.');
    expect(strong.quotability).toBeGreaterThan(0.7);
    expect(rambling.quotability).toBeLessThan(0.2);
    expect(tiny.quotability).toBe(0);
  });
});

describe('cleanQuote (quote extraction)', () => {
  it('drops disfluencies and leading fillers, capitalises, ends the sentence', () => {
    expect(cleanQuote('so, um, the truth is we were, uh, completely wrong about pricing')).toBe(
      'The truth is we were completely wrong about pricing.',
    );
    expect(cleanQuote('And I I think, you know, the price is a signal.')).toBe(
      'I think, the price is a signal.',
    );
  });
  it('keeps a short sentence whole even if it starts with "so"', () => {
    expect(cleanQuote('So true.')).toBe('So true.');
  });
  it('cuts an over-long sentence at a clause boundary', () => {
    const long =
      'We called every single customer we had over four days, all one hundred and twelve of them, and we did not ask for money at all but asked what would make them stay forever with us no matter what';
    const quote = cleanQuote(long);
    expect(quote.endsWith('…')).toBe(true);
    expect(quote.split(' ').length).toBeLessThanOrEqual(32);
    expect(quote.startsWith('We called every single customer')).toBe(true);
  });
});
