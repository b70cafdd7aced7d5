import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../../../main/areas/clips/parse.js';
import { segmentSentences } from '../../../main/areas/clips/sentences.js';

const sentencesOf = (text: string) => segmentSentences(parseTranscript(text).cues);

describe('segmentSentences', () => {
  it('splits on . ! ? but not on abbreviations, initials, decimals or a full stop before a lower-case word', () => {
    const texts = sentencesOf(
      'Dr. Smith met J. Doe at 3.5 p.m. on Friday. It went well! Did it? Yes, e.g. the pricing... and the rest.',
    ).map((s) => s.text);
    expect(texts).toEqual([
      'Dr. Smith met J. Doe at 3.5 p.m. on Friday.',
      'It went well!',
      'Did it?',
      'Yes, e.g. the pricing... and the rest.',
    ]);
  });

  it('starts a new sentence when the speaker changes, and carries a speaker over unlabelled lines', () => {
    const sentences = sentencesOf('HOST: So what happened\nGUEST: We ran out of cash\nand nearly closed.');
    expect(sentences.map((s) => [s.speaker, s.text])).toEqual([
      ['HOST', 'So what happened'],
      ['GUEST', 'We ran out of cash and nearly closed.'],
    ]);
  });

  it('estimates plain text at 150 words per minute', () => {
    const words = Array.from({ length: 150 }, (_, i) =>
      i % 10 === 0 ? 'Word' : i % 10 === 9 ? 'word.' : 'word',
    ).join(' ');
    const sentences = sentencesOf(words);
    expect(sentences[0]!.start).toBe(0);
    expect(sentences.at(-1)!.end).toBeCloseTo(60, 6);
    expect(sentences).toHaveLength(15);
  });

  it('interpolates times inside a cue by position and spans cues', () => {
    const sentences = sentencesOf(
      '00:00:10,000 --> 00:00:20,000\nFirst one here. And the second\n\n00:00:20,000 --> 00:00:24,000\ngoes on.\n',
    );
    expect(sentences).toHaveLength(2);
    expect(sentences[0]!.start).toBe(10);
    expect(sentences[0]!.end).toBeGreaterThan(14);
    expect(sentences[0]!.end).toBeLessThan(15.5);
    expect(sentences[1]!.start).toBeGreaterThan(sentences[0]!.end);
    expect(sentences[1]!.end).toBe(24);
  });

  it('cuts unpunctuated speech at caption ends once a sentence runs long', () => {
    const cue = (i: number) =>
      `00:00:${String(i * 4).padStart(2, '0')},000 --> 00:00:${String(i * 4 + 4).padStart(2, '0')},000\nand then in part ${i} we kept talking about the thing ${i} and the other thing\n\n`;
    const sentences = segmentSentences(
      parseTranscript(Array.from({ length: 12 }, (_, i) => cue(i)).join('')).cues,
    );
    expect(sentences.length).toBeGreaterThan(1);
    for (const s of sentences) expect(s.words).toBeLessThanOrEqual(60);
  });

  it('counts words and audience reactions', () => {
    const [sentence] = sentencesOf(
      '[00:00:01] That was the best day of my life. [laughter]\n[00:00:09] Next.',
    );
    expect(sentence).toMatchObject({ words: 8, reactions: 1, text: 'That was the best day of my life.' });
  });
});
