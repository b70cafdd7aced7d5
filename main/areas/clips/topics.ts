import type { Sentence } from './sentences.js';
import {
  centroid,
  cosine,
  inverseDocumentFrequency,
  termCounts,
  tfidfVector,
  topTerms,
  Vocabulary,
  type SparseVector,
} from './tfidf.js';

/** One topic: segments of the transcript whose words are alike (TF-IDF cosine). */
export interface Topic {
  id: number;
  keywords: string[];
  /** Seconds of the transcript on this topic. */
  seconds: number;
  segments: Array<{ start: number; end: number }>;
}

export interface TopicModel {
  topics: Topic[];
  /** Per sentence: its topic id, its segment index, and how typical it is of its topic (0..1). */
  topicOf: Int32Array;
  segmentOf: Int32Array;
  relevance: Float64Array;
  /** Keywords of any sentence range (a clip's own words). */
  keywords(from: number, to: number, count: number): string[];
}

/** Text tiles: sentences are grouped into blocks of about this long before comparing. */
const BLOCK_S = 40;
/** Long transcripts get longer blocks, so clustering stays small (it is cubic in segments). */
const MAX_BLOCKS = 300;
const MIN_BLOCK_WORDS = 40;
/** Segments this alike (cosine of centroids) are one topic. */
const MERGE_SIMILARITY = 0.3;
const KEYWORDS_PER_TOPIC = 3;

/**
 * Topic segmentation (TextTiling on TF-IDF block vectors) followed by clustering of the
 * segments (average-link agglomerative, cosine). Deterministic: no random starts.
 */
export function buildTopicModel(sentences: readonly Sentence[]): TopicModel {
  const speakerWords = new Set(
    sentences.flatMap((s) => (s.speaker ?? '').toLowerCase().split(/[^\p{L}]+/u)).filter((w) => w.length > 0),
  );
  const vocab = new Vocabulary(speakerWords);
  const sentenceTerms = sentences.map((s) => vocab.termIds(s.text));
  const duration = (sentences.at(-1)?.end ?? 0) - (sentences[0]?.start ?? 0);
  const blocks = makeBlocks(sentences, Math.max(BLOCK_S, duration / MAX_BLOCKS));
  const blockCounts = blocks.map(([from, to]) => termCounts(sentenceTerms.slice(from, to + 1).flat()));
  const idf = inverseDocumentFrequency(blockCounts);
  const blockVectors = blockCounts.map((counts) => tfidfVector(counts, idf));

  const segmentBlocks = tileSegments(blockVectors);
  const segmentVectors = segmentBlocks.map(([from, to]) => centroid(blockVectors.slice(from, to + 1)));
  const clusterOfSegment = clusterSegments(segmentVectors);

  const topicOf = new Int32Array(sentences.length);
  const segmentOf = new Int32Array(sentences.length);
  segmentBlocks.forEach(([fromBlock, toBlock], segment) => {
    for (let s = blocks[fromBlock]![0]; s <= blocks[toBlock]![1]; s++) {
      segmentOf[s] = segment;
      topicOf[s] = clusterOfSegment[segment]!;
    }
  });

  const topicCount = Math.max(0, ...clusterOfSegment) + 1;
  const topicTerms: number[][] = Array.from({ length: topicCount }, () => []);
  sentenceTerms.forEach((ids, s) => topicTerms[topicOf[s]!]!.push(...ids));
  const topicVectors = topicTerms.map((ids) => tfidfVector(termCounts(ids), idf));
  // In how many sentences of each topic each term is said (one sponsor's name said five times is not a topic).
  const spread: Array<Map<number, number>> = Array.from({ length: topicCount }, () => new Map());
  sentenceTerms.forEach((ids, s) => {
    const counts = spread[topicOf[s]!]!;
    for (const id of new Set(ids)) counts.set(id, (counts.get(id) ?? 0) + 1);
  });
  const everywhere = new Map<number, number>();
  for (const counts of spread)
    for (const [term, n] of counts) everywhere.set(term, (everywhere.get(term) ?? 0) + n);
  const relevance = new Float64Array(sentences.length);
  sentenceTerms.forEach((ids, s) => {
    relevance[s] =
      ids.length === 0 ? 0 : cosine(tfidfVector(termCounts(ids), idf), topicVectors[topicOf[s]!]!);
  });

  const topics: Topic[] = topicVectors.map((vector, id) => ({
    id,
    keywords: topTerms(
      new Map(
        [...vector].map(([term, weight]) => {
          const here = spread[id]!.get(term) ?? 0;
          return [term, weight * labelSpread(here) * (here / (everywhere.get(term) ?? 1))];
        }),
      ),
      KEYWORDS_PER_TOPIC,
    ).map((term) => vocab.label(term)),
    seconds: 0,
    segments: [],
  }));
  segmentBlocks.forEach(([fromBlock, toBlock], segment) => {
    const topic = topics[clusterOfSegment[segment]!]!;
    const start = sentences[blocks[fromBlock]![0]]!.start;
    const end = sentences[blocks[toBlock]![1]]!.end;
    topic.segments.push({ start, end });
    topic.seconds += end - start;
  });

  return {
    topics,
    topicOf,
    segmentOf,
    relevance,
    keywords: (from, to, count) =>
      topTerms(tfidfVector(termCounts(sentenceTerms.slice(from, to + 1).flat()), idf), count).map((term) =>
        vocab.label(term),
      ),
  };
}

/**
 * Terms said in many sentences of a topic name it better than one said often in one place;
 * the label weight is also scaled by the share of the term's sentences that are in the topic.
 */
function labelSpread(sentencesWithTerm: number): number {
  return sentencesWithTerm < 2 ? 0.3 : Math.min(2, Math.log2(1 + sentencesWithTerm));
}

/** Consecutive sentence ranges [from, to] of at least `seconds` and MIN_BLOCK_WORDS words. */
function makeBlocks(sentences: readonly Sentence[], seconds: number): Array<[number, number]> {
  const blocks: Array<[number, number]> = [];
  let from = 0;
  let words = 0;
  sentences.forEach((sentence, i) => {
    words += sentence.words;
    if (sentence.end - sentences[from]!.start >= seconds && words >= MIN_BLOCK_WORDS) {
      blocks.push([from, i]);
      from = i + 1;
      words = 0;
    }
  });
  if (from < sentences.length) {
    // A short tail joins the block before it.
    if (blocks.length > 0 && words < MIN_BLOCK_WORDS) blocks[blocks.length - 1]![1] = sentences.length - 1;
    else blocks.push([from, sentences.length - 1]);
  }
  return blocks;
}

/**
 * TextTiling (Hearst 1997): similarity across each gap between blocks (two blocks each side),
 * depth of each valley, boundaries at valleys deeper than the mean depth; segments of at
 * least two blocks.
 */
function tileSegments(vectors: readonly SparseVector[]): Array<[number, number]> {
  const n = vectors.length;
  if (n < 4) return [[0, Math.max(0, n - 1)]];
  const gaps: number[] = [];
  for (let g = 0; g < n - 1; g++) {
    const left = centroid(vectors.slice(Math.max(0, g - 1), g + 1));
    const right = centroid(vectors.slice(g + 1, Math.min(n, g + 3)));
    gaps.push(cosine(left, right));
  }
  const depths = gaps.map((sim, g) => {
    let leftPeak = sim;
    for (let k = g - 1; k >= 0 && gaps[k]! >= leftPeak; k--) leftPeak = gaps[k]!;
    let rightPeak = sim;
    for (let k = g + 1; k < gaps.length && gaps[k]! >= rightPeak; k++) rightPeak = gaps[k]!;
    return leftPeak - sim + (rightPeak - sim);
  });
  const mean = depths.reduce((a, b) => a + b, 0) / depths.length;
  const candidates = depths
    .map((depth, g) => ({ g, depth }))
    .filter(({ depth }) => depth > mean && depth > 0.05)
    .sort((a, b) => b.depth - a.depth || a.g - b.g);
  const cuts: number[] = [];
  for (const { g } of candidates) {
    // A cut after block g; keep segments at least two blocks long.
    const tooClose = g < 1 || g > n - 3 || cuts.some((c) => Math.abs(c - g) < 2);
    if (!tooClose) cuts.push(g);
  }
  cuts.sort((a, b) => a - b);
  const segments: Array<[number, number]> = [];
  let from = 0;
  for (const cut of cuts) {
    segments.push([from, cut]);
    from = cut + 1;
  }
  segments.push([from, n - 1]);
  return segments;
}

/** Average-link agglomerative clustering; cluster ids numbered by first appearance. */
function clusterSegments(vectors: readonly SparseVector[]): number[] {
  const n = vectors.length;
  const sim: number[][] = vectors.map((a) => vectors.map((b) => cosine(a, b)));
  let clusters: number[][] = vectors.map((_, i) => [i]);
  const linkage = (a: number[], b: number[]) => {
    let sum = 0;
    for (const i of a) for (const j of b) sum += sim[i]![j]!;
    return sum / (a.length * b.length);
  };
  for (;;) {
    let best = { a: -1, b: -1, value: MERGE_SIMILARITY };
    for (let a = 0; a < clusters.length; a++) {
      for (let b = a + 1; b < clusters.length; b++) {
        const value = linkage(clusters[a]!, clusters[b]!);
        if (value > best.value) best = { a, b, value };
      }
    }
    if (best.a < 0) break;
    const merged = [...clusters[best.a]!, ...clusters[best.b]!].sort((x, y) => x - y);
    clusters = clusters.filter((_, k) => k !== best.a && k !== best.b);
    clusters.push(merged);
    clusters.sort((x, y) => x[0]! - y[0]!);
  }
  const clusterOf = new Array<number>(n).fill(0);
  clusters.forEach((members, id) => members.forEach((segment) => (clusterOf[segment] = id)));
  return clusterOf;
}
