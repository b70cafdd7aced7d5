import {
  CLIP_MIN_S,
  type AnalyzeClipsResponse,
  type ClipSignal,
  type SuggestedClip,
  type TranscriptTopic,
} from '../../../shared/api/clips.js';
import { fitClip } from '../../../shared/clip-fit.js';
import { keptSentence, type KeptSentence } from './kept-sentences.js';
import { parseTranscript } from './parse.js';
import { formatMoment, pinMarks, type LiveMark } from './pin.js';
import { cleanQuote } from './quote.js';
import { MIN_CONFIDENCE, selectClips } from './select.js';
import { segmentSentences } from './sentences.js';
import { sentenceSignals, type PhraseMatch } from './signals.js';
import { buildTopicModel } from './topics.js';
import {
  describeWindow,
  penaltyNames,
  scoreWindows,
  SIGNAL_WEIGHTS,
  signalNames,
  type ScoringInput,
  type SignalName,
} from './windows.js';

export type ClipAnalysis = Omit<
  AnalyzeClipsResponse,
  'success' | 'contentProductionId' | 'analysisId' | 'expiresAt' | 'take'
>;

export interface AnalyzeOptions {
  maxClips: number;
  /** The marks of the take the transcript belongs to: each pins a clip (DESIGN §6.6). */
  marks?: readonly LiveMark[];
}

/** What an analysis keeps beside its answer, for exports and review (stored 30 days). */
export interface KeptTranscript {
  sentences: KeptSentence[];
  /** Each suggestion's sentences [from, to], in the order of `suggestedClips`. */
  windows: Array<{ from: number; to: number }>;
}

/**
 * Transcript in, clip suggestions out (DESIGN §6.6). Pure and offline: same input, same
 * output. Throws TranscriptError when the transcript cannot be read.
 */
export function analyzeTranscript(transcript: string, options: AnalyzeOptions): ClipAnalysis {
  return analyzeAndKeep(transcript, options).analysis;
}

/** analyzeTranscript, plus the sentences and windows kept for exports and review. */
export function analyzeAndKeep(
  transcript: string,
  options: AnalyzeOptions,
): { analysis: ClipAnalysis; kept: KeptTranscript } {
  const parsed = parseTranscript(transcript);
  const sentences = segmentSentences(parsed.cues);
  const signals = sentences.map(sentenceSignals);
  const topics = buildTopicModel(sentences);
  const input: ScoringInput = { sentences, signals, topics };
  const candidates = scoreWindows(input, MIN_CONFIDENCE);
  // Marked moments first (the operator was there), then the best of what they do not overlap.
  const { pinned, warnings: pinWarnings } = pinMarks(input, options.marks ?? [], options.maxClips);
  const free = candidates.filter((c) => !pinned.some((p) => c.from <= p.to && p.from <= c.to));
  const chosen = selectClips(free, options.maxClips - pinned.length);
  const windows = [
    ...pinned.map((p) => ({ from: p.from, to: p.to, marks: p.marks })),
    ...chosen.map((c) => ({ from: c.from, to: c.to, marks: [] })),
  ];

  const durationS = round(sentences.at(-1)!.end);
  const warnings = [...parsed.warnings, ...pinWarnings];
  if (sentences.at(-1)!.end - sentences[0]!.start < CLIP_MIN_S) {
    warnings.push(`the transcript covers ${durationS} s; a clip needs at least ${CLIP_MIN_S} s`);
  }
  const totalTopicSeconds = topics.topics.reduce((sum, t) => sum + t.seconds, 0) || 1;
  const analysis: ClipAnalysis = {
    timing: parsed.format === 'plain' ? 'estimated' : 'stamped',
    format: parsed.format,
    suggestedClips: windows.map((w) => describeClip(input, w.from, w.to, w.marks)),
    topics: topics.topics.map((topic): TranscriptTopic => ({
      id: topic.id,
      keywords: topic.keywords,
      seconds: round(topic.seconds),
      share: Math.round((topic.seconds / totalTopicSeconds) * 1000) / 1000,
      segments: topic.segments.map((segment) => ({ start: round(segment.start), end: round(segment.end) })),
    })),
    stats: {
      words: sentences.reduce((sum, s) => sum + s.words, 0),
      sentences: sentences.length,
      durationS,
      windowsScored: candidates.length,
    },
    warnings,
  };
  return {
    analysis,
    kept: {
      sentences: sentences.map((s, i) => keptSentence(s, signals[i]!.quotability)),
      windows: windows.map(({ from, to }) => ({ from, to })),
    },
  };
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
const unique = <T>(items: Iterable<T>) => [...new Set(items)];
/** Phrases found, strongest first (ties in order of appearance). */
const phrases = (matches: readonly PhraseMatch[]) =>
  [...matches].sort((a, b) => b.weight - a.weight).map((m) => m.phrase);

function describeClip(
  input: ScoringInput,
  from: number,
  to: number,
  marks: readonly LiveMark[],
): SuggestedClip {
  const { sentences, signals, topics } = input;
  const window = describeWindow(input, from, to);
  const inside = signals.slice(window.from, window.to + 1);
  const span = sentences.slice(window.from, window.to + 1);
  const topic = topics.topics[window.topic]!;
  const duration = window.end - window.start;
  const afinn = inside.reduce((sum, s) => sum + s.sentiment.score, 0);
  const emotionWords = unique(inside.flatMap((s) => s.emotionWords));
  const positiveSum = inside.reduce((sum, s) => sum + Math.max(0, s.sentiment.score), 0);
  const negativeSum = inside.reduce((sum, s) => sum + Math.max(0, -s.sentiment.score), 0);
  const sentimentLabel =
    positiveSum >= 3 && negativeSum >= 3
      ? 'mixed'
      : afinn >= 3
        ? 'positive'
        : afinn <= -3
          ? 'negative'
          : 'neutral';
  const firstQuestion = span.find((_, k) => inside[k]!.question);

  const evidence: Record<SignalName, string[]> = {
    hook: unique(phrases(inside.flatMap((s) => s.hooks))).slice(0, 3),
    question: firstQuestion ? [clip(firstQuestion.text, 90)] : [],
    numbers: unique(inside.flatMap((s) => s.numbers)).slice(0, 4),
    contrast: unique(phrases(inside.flatMap((s) => s.contrasts))).slice(0, 3),
    openLoop: unique(phrases(inside.flatMap((s) => s.openLoops))).slice(0, 3),
    // The AFINN score stays here, in the details; the reason says the words (issue #28.3).
    emotion: [`AFINN ${afinn > 0 ? '+' : ''}${afinn}`, ...emotionWords.slice(0, 5)],
    quote: [],
    coherence: topic.keywords,
    shape: [`${Math.round(duration)} s`],
  };
  const penaltyEvidence = {
    filler: unique(inside.flatMap((s) => s.fillers.map((m) => m.phrase))).slice(0, 3),
    disfluency: [`${inside.reduce((sum, s) => sum + s.disfluencies, 0)} fillers (um, uh, you know)`],
    danglingStart: [clip(span[0]!.text, 40)],
  };
  const clipSignals: ClipSignal[] = [
    ...signalNames.map((name): ClipSignal => ({
      name,
      kind: 'signal',
      score: round(window.signals[name]),
      contribution: round(SIGNAL_WEIGHTS[name] * window.signals[name]),
      evidence: evidence[name],
    })),
    ...penaltyNames.map((name): ClipSignal => ({
      name,
      kind: 'penalty',
      score: round(window.penalties[name]),
      contribution: -round(window.penalties[name]),
      evidence: penaltyEvidence[name],
    })),
  ]
    .filter((s) => Math.abs(s.contribution) >= 0.005)
    .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution) || signalOrder(a) - signalOrder(b));

  const opening = signals[window.from]!;
  const openingHook =
    Math.max(opening.hook, window.to > window.from ? signals[window.from + 1]!.hook : 0) >= 0.5;
  return {
    hookQuote: cleanQuote(sentences[window.quoteSentence]!.text),
    startTime: round(window.start),
    endTime: round(window.end),
    duration: round(duration),
    confidence: Math.round(window.confidence * 1000) / 1000,
    reason: reasonText(clipSignals, marks, { openingHook, openingQuestion: opening.question }),
    topic: topic.keywords.join(', '),
    topicId: topic.id,
    keywords: topics.keywords(window.from, window.to, 4),
    signals: clipSignals,
    fitsPlatforms: fitClip({ durationS: duration, ratios: [], targets: null }).fitsPlatforms,
    speakers: unique(span.map((s) => s.speaker).filter((s): s is string => s !== null)),
    sentiment: { score: afinn, label: sentimentLabel },
    marks: marks.map((m) => ({ id: m.id, offsetS: m.offsetS, label: m.label })),
  };
}

const displayOrder: readonly string[] = [...signalNames, ...penaltyNames];
function signalOrder(signal: ClipSignal): number {
  return displayOrder.indexOf(signal.name);
}

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1).trimEnd()}…`;
}

const quoted = (items: readonly string[]) => items.map((item) => `"${item}"`).join(', ');

/**
 * One line a person reads, marks first, then what scored, strongest first: "Marked live at
 * 00:12:31; opens with a hook ("here's the thing"); strong feeling: love, destroyed."
 */
function reasonText(
  signals: readonly ClipSignal[],
  marks: readonly LiveMark[],
  context: { openingHook: boolean; openingQuestion: boolean },
): string {
  const parts: string[] = [];
  if (marks.length > 0) {
    const labels = marks.flatMap((m) => (m.label ? [`"${m.label}"`] : []));
    parts.push(
      `marked live at ${marks.map((m) => formatMoment(m.offsetS)).join(', ')}${labels.length > 0 ? ` (${labels.join(', ')})` : ''}`,
    );
  }
  const most = parts.length + 4;
  for (const signal of signals) {
    if (parts.length === most) break;
    if (signal.kind === 'penalty' || signal.contribution < 0.015) continue;
    const e = signal.evidence;
    switch (signal.name) {
      case 'hook':
        if (e.length > 0)
          parts.push(`${context.openingHook ? 'opens with a hook' : 'hook line'} (${quoted(e)})`);
        break;
      case 'question':
        parts.push(context.openingQuestion ? 'opens with a question' : 'asks a question and answers it');
        break;
      case 'numbers':
        parts.push(`specific numbers (${e.join(', ')})`);
        break;
      case 'contrast':
        if (e.length > 0) parts.push(`contrast or surprise (${quoted(e)})`);
        break;
      case 'openLoop':
        if (e.length > 0) parts.push(`open loop (${quoted(e)})`);
        break;
      case 'emotion': {
        // evidence[0] is the AFINN score (kept in the details); the words are what a person reads.
        const words = e.slice(1, 4);
        const strong = signal.score >= 0.5 ? 'strong ' : '';
        parts.push(
          words.length > 0 ? `${strong}feeling: ${words.join(', ')}` : `${strong}emotional language`,
        );
        break;
      }
      case 'quote':
        parts.push('a quotable line');
        break;
      case 'coherence':
        parts.push(`stays on one topic (${e.join(', ')})`);
        break;
      case 'shape':
        parts.push(`a complete ${e[0] ?? ''} passage`);
        break;
    }
  }
  const filler = signals.find((s) => s.name === 'filler' && s.score >= 0.05);
  if (filler && filler.evidence.length > 0) parts.push(`some filler (${quoted(filler.evidence)})`);
  const text = parts.join('; ') || 'best-scoring passage of the transcript';
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
