import { CLIP_MAX_S, CLIP_MIN_S, clipPenaltyNames, clipSignalNames } from '../../../shared/api/clips.js';
import type { Sentence } from './sentences.js';
import type { SentenceSignals } from './signals.js';
import type { TopicModel } from './topics.js';

/** The named signals a window is scored on, and the penalties: the API contract lists them. */
export const signalNames = clipSignalNames;
export type SignalName = (typeof signalNames)[number];
export const penaltyNames = clipPenaltyNames;
export type PenaltyName = (typeof penaltyNames)[number];

/** Share of the score each signal can give; sums to 1. */
export const SIGNAL_WEIGHTS: Record<SignalName, number> = {
  hook: 0.18,
  question: 0.07,
  numbers: 0.08,
  contrast: 0.1,
  openLoop: 0.07,
  emotion: 0.2,
  quote: 0.14,
  coherence: 0.08,
  shape: 0.08,
};

/** A scored window of whole sentences [from, to]. */
export interface Candidate {
  from: number;
  to: number;
  start: number;
  end: number;
  /** 0..1 after penalties and calibration. */
  confidence: number;
  /** The topic most of the window is on. */
  topic: number;
}

export interface WindowDetail extends Candidate {
  /** Each signal's strength 0..1 (before weighting). */
  signals: Record<SignalName, number>;
  /** Each penalty, in score points taken off before calibration. */
  penalties: Record<PenaltyName, number>;
  /** The most quotable sentence. */
  quoteSentence: number;
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/**
 * Maps the weighted sum onto 0..1: a logistic centred on a typical passage (raw 0.4 → 0.5),
 * so a plain passage lands near 0.3 and one with several strong signals above 0.85.
 */
export function calibrate(raw: number): number {
  return 1 / (1 + Math.exp(-9 * (raw - 0.4)));
}

export function lengthFit(seconds: number): number {
  if (seconds < CLIP_MIN_S || seconds > CLIP_MAX_S) return 0;
  if (seconds < 25) return 0.6 + (0.4 * (seconds - CLIP_MIN_S)) / 10;
  if (seconds <= 60) return 1;
  return 1 - (0.5 * (seconds - 60)) / 30;
}

export interface ScoringInput {
  sentences: readonly Sentence[];
  signals: readonly SentenceSignals[];
  topics: TopicModel;
}

/**
 * Running totals of a window that grows one sentence at a time from `from`, so every
 * window of a start costs O(1) more than the one before it.
 */
class WindowAccumulator {
  private words = 0;
  private emotionPoints = 0;
  private maxEmotion = 0;
  private maxHook = 0;
  private sumNumber = 0;
  private sumContrast = 0;
  private sumOpenLoop = 0;
  private questions = 0;
  private maxQuote = -1;
  private quoteAt: number;
  private sumFiller = 0;
  private maxFiller = 0;
  private disfluencies = 0;
  private sumRelevance = 0;
  private lastSegment = -1;
  private currentSegmentSeconds = 0;
  private currentTopic: number;
  private maxSegmentSeconds = 0;
  private dominantTopic: number;
  to: number;

  constructor(
    private readonly input: ScoringInput,
    readonly from: number,
  ) {
    this.to = from - 1;
    this.quoteAt = from;
    this.currentTopic = input.topics.topicOf[from]!;
    this.dominantTopic = this.currentTopic;
  }

  get start(): number {
    return this.input.sentences[this.from]!.start;
  }

  get wordCount(): number {
    return this.words;
  }

  get end(): number {
    return this.input.sentences[this.to]!.end;
  }

  /** Takes in the next sentence. */
  grow(): void {
    const { sentences, signals, topics } = this.input;
    const to = ++this.to;
    const sentence = sentences[to]!;
    const s = signals[to]!;
    this.words += sentence.words;
    this.emotionPoints += s.emotionPoints;
    this.maxEmotion = Math.max(this.maxEmotion, s.emotion);
    this.maxHook = Math.max(this.maxHook, s.hook);
    this.sumNumber += s.number;
    this.sumContrast += s.contrast;
    this.sumOpenLoop += s.openLoop;
    if (s.question) this.questions++;
    if (s.quotability > this.maxQuote) {
      this.maxQuote = s.quotability;
      this.quoteAt = to;
    }
    this.sumFiller += s.filler;
    this.maxFiller = Math.max(this.maxFiller, s.filler);
    this.disfluencies += s.disfluencies;
    this.sumRelevance += topics.relevance[to]!;
    const segment = topics.segmentOf[to]!;
    if (segment !== this.lastSegment) {
      this.lastSegment = segment;
      this.currentSegmentSeconds = 0;
      this.currentTopic = topics.topicOf[to]!;
    }
    this.currentSegmentSeconds += sentence.end - (to === this.from ? sentence.start : sentences[to - 1]!.end);
    if (this.currentSegmentSeconds > this.maxSegmentSeconds) {
      this.maxSegmentSeconds = this.currentSegmentSeconds;
      this.dominantTopic = this.currentTopic;
    }
  }

  detail(): WindowDetail {
    const { sentences, signals, topics } = this.input;
    const { from, to } = this;
    const first = signals[from]!;
    const second = to > from ? signals[from + 1]! : null;
    const last = signals[to]!;
    const seconds = this.end - this.start;
    const count = to - from + 1;
    const strengths: Record<SignalName, number> = {
      hook: Math.max(first.hook, 0.8 * (second?.hook ?? 0), 0.6 * this.maxHook),
      question: first.question ? 1 : second?.question ? 0.7 : this.questions > 0 && !last.question ? 0.35 : 0,
      numbers: clamp01(this.sumNumber / 2),
      contrast: clamp01(this.sumContrast / 1.5),
      openLoop: Math.max(first.openLoop, 0.8 * (second?.openLoop ?? 0), clamp01(this.sumOpenLoop / 2)),
      emotion: 0.5 * clamp01(this.emotionPoints / Math.max(this.words, 1) / 0.12) + 0.5 * this.maxEmotion,
      quote: Math.max(0, this.maxQuote),
      coherence:
        0.5 * (this.maxSegmentSeconds / Math.max(seconds, 1e-6)) +
        0.5 * clamp01(this.sumRelevance / count / 0.5),
      shape:
        (lengthFit(seconds) +
          startFit(sentences[from - 1], sentences[from]!, topics, from) +
          endingFit(sentences[to]!, last, sentences[to + 1], topics, to)) /
        3,
    };
    const penalties: Record<PenaltyName, number> = {
      filler: 0.45 * (this.sumFiller / count) + 0.35 * this.maxFiller + 0.2 * first.filler,
      disfluency: 0.15 * clamp01((this.disfluencies / Math.max(this.words, 1)) * 10),
      danglingStart: first.dangling ? 0.06 : 0,
    };
    let raw = 0;
    for (const name of signalNames) raw += SIGNAL_WEIGHTS[name] * strengths[name];
    for (const name of penaltyNames) raw -= penalties[name];
    return {
      from,
      to,
      start: this.start,
      end: this.end,
      confidence: calibrate(raw),
      topic: this.dominantTopic,
      signals: strengths,
      penalties,
      quoteSentence: this.quoteAt,
    };
  }
}

/**
 * No 90 s of speech holds more words (5 a second is very fast speech). Where a transcript's times
 * do not advance (one stamp repeated, cues of no length), windows never reach 90 s: this bound
 * keeps the work per start constant, so analysis stays linear in the transcript.
 */
export const MAX_WINDOW_WORDS = CLIP_MAX_S * 5;

/**
 * Scores every window of whole sentences lasting 15–90 s. O(sentences × sentences per 90 s).
 * Only the compact candidates are kept; `describeWindow` recomputes the detail of the few chosen.
 */
export function scoreWindows(
  input: ScoringInput,
  minConfidence: number,
  /** Counts the sentences taken into windows: the work done, for tests of the bound. */
  work: { grown: number } = { grown: 0 },
): Candidate[] {
  const { sentences } = input;
  const candidates: Candidate[] = [];
  for (let from = 0; from < sentences.length; from++) {
    const window = new WindowAccumulator(input, from);
    while (
      window.to + 1 < sentences.length &&
      sentences[window.to + 1]!.end - window.start <= CLIP_MAX_S &&
      window.wordCount + sentences[window.to + 1]!.words <= MAX_WINDOW_WORDS
    ) {
      window.grow();
      work.grown++;
      if (window.end - window.start < CLIP_MIN_S) continue;
      const { to, start, end, confidence, topic } = window.detail();
      if (confidence >= minConfidence) candidates.push({ from, to, start, end, confidence, topic });
    }
  }
  return candidates;
}

/**
 * The best-scoring window of whole sentences, 15–90 s, that spans the moment `at` (seconds) and
 * starts at sentence `minFrom` or later (a live mark's clip, DESIGN §6.6). Scored however dull:
 * the operator marked it. Ties go to the earlier, then the shorter window. Null when no such
 * window exists (the transcript is shorter than 15 s there, or a sentence is longer than 90 s).
 */
export function bestWindowSpanning(input: ScoringInput, at: number, minFrom: number): Candidate | null {
  const { sentences } = input;
  let best: Candidate | null = null;
  for (let from = minFrom; from < sentences.length && sentences[from]!.start <= at; from++) {
    if (at - sentences[from]!.start > CLIP_MAX_S) continue;
    const window = new WindowAccumulator(input, from);
    while (window.to + 1 < sentences.length && sentences[window.to + 1]!.end - window.start <= CLIP_MAX_S) {
      window.grow();
      if (window.end < at || window.end - window.start < CLIP_MIN_S) continue;
      const { to, start, end, confidence, topic } = window.detail();
      if (best === null || confidence > best.confidence) best = { from, to, start, end, confidence, topic };
    }
  }
  return best;
}

export function describeWindow(input: ScoringInput, from: number, to: number): WindowDetail {
  const window = new WindowAccumulator(input, from);
  while (window.to < to) window.grow();
  return window.detail();
}

/** A clean start: the first sentence of a turn, after a pause, or where a topic begins. */
function startFit(
  previous: Sentence | undefined,
  sentence: Sentence,
  topics: TopicModel,
  at: number,
): number {
  if (previous === undefined) return 1;
  const naturalBreak =
    previous.speaker !== sentence.speaker ||
    sentence.start - previous.end >= 1 ||
    topics.segmentOf[at - 1] !== topics.segmentOf[at];
  return naturalBreak ? 1 : 0.5;
}

/** A clean ending: a statement that lands, at a hand-over, a pause or a change of topic. */
function endingFit(
  sentence: Sentence,
  s: SentenceSignals,
  next: Sentence | undefined,
  topics: TopicModel,
  at: number,
): number {
  if (s.filler >= 0.8) return 0;
  const naturalBreak =
    next === undefined ||
    next.speaker !== sentence.speaker ||
    next.start - sentence.end >= 1 ||
    topics.segmentOf[at + 1] !== topics.segmentOf[at];
  const payoff = Math.max(s.emotion, s.hook, s.contrast) >= 0.5;
  if (s.question) return naturalBreak ? 0.1 : 0.2;
  return 0.5 + (naturalBreak ? 0.3 : 0) + (payoff ? 0.2 : 0);
}
