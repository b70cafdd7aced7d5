import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../../../main/areas/clips/parse.js';
import { segmentSentences } from '../../../main/areas/clips/sentences.js';
import {
  centroid,
  cosine,
  inverseDocumentFrequency,
  stem,
  termCounts,
  tfidfVector,
  Vocabulary,
} from '../../../main/areas/clips/tfidf.js';
import { buildTopicModel } from '../../../main/areas/clips/topics.js';

describe('TF-IDF', () => {
  it('stems lightly so forms of a word meet', () => {
    expect(['customers', 'customer'].map(stem)).toEqual(['customer', 'customer']);
    expect(['pricing', 'priced'].map(stem)).toEqual(['pric', 'pric']);
    expect(['stories', 'story'].map(stem)).toEqual(['story', 'story']);
    expect(stem('business')).toBe('business');
  });

  it('drops stop words and speech fillers, and the excluded words', () => {
    const vocab = new Vocabulary(new Set(['priya']));
    const ids = vocab.termIds(
      'Yeah, so Priya, I think the pricing of the clinics is, like, really important.',
    );
    expect(ids.map((id) => vocab.label(id))).toEqual(['pricing', 'clinics', 'important']);
  });

  it('gives cosine 1 for the same text, 0 for texts with no word in common, and weights rare terms up', () => {
    const vocab = new Vocabulary();
    const docs = ['pricing churn pricing', 'churn hiring support', 'hiring support inbox'].map((t) =>
      termCounts(vocab.termIds(t)),
    );
    const idf = inverseDocumentFrequency(docs);
    const [a, b, c] = docs.map((d) => tfidfVector(d, idf));
    expect(cosine(a!, a!)).toBeCloseTo(1, 10);
    expect(cosine(a!, c!)).toBe(0);
    expect(cosine(a!, b!)).toBeGreaterThan(0);
    expect(cosine(a!, b!)).toBeLessThan(cosine(b!, c!));
    const mid = centroid([a!, c!]);
    expect(cosine(mid, a!)).toBeCloseTo(cosine(mid, c!), 1);
  });
});

/** A stamped transcript whose paragraphs alternate between two subjects with different words. */
function twoTopicTranscript(): string {
  const cooking = [
    'The sourdough starter needs flour and water every single morning.',
    'Bake the bread in a hot oven with steam for the crust.',
    'A good loaf needs time, flour, salt and a patient baker.',
    'Knead the dough, then let the yeast rise the bread slowly overnight.',
  ];
  const sailing = [
    'The sailboat heeled hard when the wind shifted on the harbour.',
    'Trim the mainsail and watch the tide before you leave the harbour.',
    'A sailor reads the wind, the waves and the clouds over the sea.',
    'We anchored the boat in a calm bay after the storm at sea.',
  ];
  const lines: string[] = [];
  let t = 0;
  for (const block of [cooking, sailing, cooking, sailing]) {
    for (let repeat = 0; repeat < 4; repeat++) {
      for (const sentence of block) {
        const s = String(t % 60).padStart(2, '0');
        lines.push(`[00:${String(Math.floor(t / 60)).padStart(2, '0')}:${s}] ${sentence}`);
        t += 5;
      }
    }
  }
  return lines.join('\n');
}

describe('topic clustering', () => {
  const sentences = segmentSentences(parseTranscript(twoTopicTranscript()).cues);
  const model = buildTopicModel(sentences);

  it('separates the two subjects and finds each again when it comes back', () => {
    expect(model.topics).toHaveLength(2);
    const [bread, boats] = model.topics;
    expect(bread!.keywords.join(' ')).toMatch(/bread|flour|dough|loaf|baker|oven/);
    expect(boats!.keywords.join(' ')).toMatch(/harbour|wind|sea|sail|boat/);
    expect(bread!.segments).toHaveLength(2);
    expect(boats!.segments).toHaveLength(2);
    const topicAt = (seconds: number) => model.topicOf[sentences.findIndex((s) => s.start >= seconds)];
    expect(topicAt(10)).toBe(topicAt(170));
    expect(topicAt(90)).toBe(topicAt(250));
    expect(topicAt(10)).not.toBe(topicAt(90));
  });

  it('shares out the time and scores how typical each sentence is', () => {
    const total = model.topics.reduce((sum, t) => sum + t.seconds, 0);
    expect(total).toBeGreaterThan(300);
    for (const r of model.relevance) expect(r).toBeGreaterThanOrEqual(0);
    expect(Math.max(...model.relevance)).toBeLessThanOrEqual(1 + 1e-9);
  });

  it('names a range by its own words', () => {
    expect(model.keywords(0, 3, 3).join(' ')).toMatch(/sourdough|flour|bread|oven|loaf|dough/);
  });

  it('is deterministic', () => {
    const again = buildTopicModel(sentences);
    expect(again.topics).toEqual(model.topics);
    expect([...again.topicOf]).toEqual([...model.topicOf]);
  });

  it('gives a short transcript one topic', () => {
    const short = segmentSentences(
      parseTranscript('One idea about pricing. Another about pricing too.').cues,
    );
    expect(buildTopicModel(short).topics).toHaveLength(1);
  });
});
