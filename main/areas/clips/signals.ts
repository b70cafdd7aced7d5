import Sentiment from 'sentiment';
import {
  ABSOLUTES,
  CONTRAST_PHRASES,
  DANGLING_START,
  DISFLUENCIES,
  FILLER_PHRASES,
  HAS_UNIT,
  HOOK_PHRASES,
  NUMBER_WORDS,
  NUMERALS,
  OPEN_LOOP_PHRASES,
  SENTIMENT_OVERRIDES,
  type PhraseList,
} from './lexicon.js';
import type { Sentence } from './sentences.js';

export interface PhraseMatch {
  phrase: string;
  weight: number;
}

/** What one sentence offers a clip. Scores are 0..1. */
export interface SentenceSignals {
  hooks: PhraseMatch[];
  contrasts: PhraseMatch[];
  openLoops: PhraseMatch[];
  fillers: PhraseMatch[];
  numbers: string[];
  question: boolean;
  /** AFINN (the `sentiment` package): summed word score and score per word. */
  sentiment: { score: number; comparative: number };
  /** Emotional words, strongest first. */
  emotionWords: string[];
  /** Sum of the words' absolute AFINN scores (weak ±1 words count 0.3): intensity, whatever the sign. */
  emotionPoints: number;
  disfluencies: number;
  dangling: boolean;
  hook: number;
  contrast: number;
  openLoop: number;
  filler: number;
  number: number;
  emotion: number;
  /** How well the sentence stands alone as the clip's quote. */
  quotability: number;
}

interface PhraseNode {
  next: Map<string, PhraseNode>;
  /** Set when a phrase ends at this word. */
  phrase?: string;
  weight?: number;
}

/**
 * Finds list phrases in normalised text word by word (a trie over words), so the cost is
 * the number of words, not words × phrases. At each word the longest phrase starting there
 * counts; phrases may overlap ("the biggest" and "biggest mistake").
 */
class PhraseMatcher {
  private readonly root: PhraseNode = { next: new Map() };

  constructor(list: PhraseList) {
    for (const [phrase, weight] of list) {
      let node = this.root;
      for (const word of phrase.split(' ')) {
        let child = node.next.get(word);
        if (!child) node.next.set(word, (child = { next: new Map() }));
        node = child;
      }
      node.phrase = phrase;
      node.weight = weight;
    }
  }

  matches(words: readonly string[]): PhraseMatch[] {
    const seen = new Map<string, PhraseMatch>();
    for (let i = 0; i < words.length; i++) {
      let node = this.root.next.get(words[i]!);
      let longest: PhraseNode | undefined;
      for (let k = i + 1; node; k++) {
        if (node.phrase !== undefined) longest = node;
        node = k < words.length ? node.next.get(words[k]!) : undefined;
      }
      if (longest?.phrase !== undefined && !seen.has(longest.phrase)) {
        seen.set(longest.phrase, { phrase: longest.phrase, weight: longest.weight ?? 0 });
      }
    }
    return [...seen.values()];
  }
}

/** Words of normalised text as the phrase lists spell them: letters, digits, ' and - kept. */
function phraseWords(normalised: string): string[] {
  return normalised.match(/[\p{L}\p{N}'%$-]+/gu)?.map((w) => w.replace(/^['-]+|['-]+$/g, '')) ?? [];
}

const hookMatcher = new PhraseMatcher(HOOK_PHRASES);
const contrastMatcher = new PhraseMatcher(CONTRAST_PHRASES);
const openLoopMatcher = new PhraseMatcher(OPEN_LOOP_PHRASES);
const fillerMatcher = new PhraseMatcher(FILLER_PHRASES);
const sentiment = new Sentiment();

/** Lower case, straight quotes, single spaces: the form the phrase lists are written in. */
function normalise(text: string): string {
  return text.toLowerCase().replace(/[‘’`]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ');
}

const weightSum = (matches: readonly PhraseMatch[]) => matches.reduce((sum, m) => sum + m.weight, 0);
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

export function sentenceSignals(sentence: Sentence): SentenceSignals {
  const text = normalise(sentence.text);
  const words = phraseWords(text);
  const hooks = hookMatcher.matches(words);
  const contrasts = contrastMatcher.matches(words);
  const openLoops = openLoopMatcher.matches(words);
  const fillers = fillerMatcher.matches(words);
  const numerals = [...text.matchAll(NUMERALS)].map((m) => m[0].trim()).filter((n) => /\d/.test(n));
  const numberWords = [...text.matchAll(NUMBER_WORDS)].map((m) => m[0]);
  const numbers = [...new Set([...numerals, ...numberWords])];
  const numberScore = clamp01(
    numerals.reduce((sum, n) => sum + (HAS_UNIT.test(n) ? 0.5 : 0.25), 0) +
      numberWords.reduce((sum, n) => sum + (HAS_UNIT.test(n) ? 0.5 : 0.1), 0),
  );
  const analysis = sentiment.analyze(sentence.text, { extras: SENTIMENT_OVERRIDES });
  const disfluencies = [...text.matchAll(DISFLUENCIES)].length;
  const question = /\?["'”’)]*$/.test(sentence.text.trim()) || /\?\s/.test(sentence.text);
  // "And what happened next?" opens a clip well: a question stands on its own.
  const dangling = !question && DANGLING_START.test(text.trim());
  const hook = clamp01(weightSum(hooks));
  const contrast = clamp01(weightSum(contrasts));
  const openLoop = clamp01(weightSum(openLoops));
  const filler = clamp01(weightSum(fillers));
  const scored = analysis.calculation.flatMap((entry) => Object.entries(entry));
  const emotionPoints = scored.reduce((sum, [, score]) => sum + weighEmotion(score), 0);
  const emotionWords = scored
    .filter(([, score]) => Math.abs(score) >= 2)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .map(([word]) => word);
  const emotion = clamp01(emotionPoints / 5 + sentence.reactions * 0.35);
  const signals = {
    hooks,
    contrasts,
    openLoops,
    fillers,
    numbers,
    question,
    sentiment: { score: analysis.score, comparative: analysis.comparative },
    emotionWords,
    emotionPoints,
    disfluencies,
    dangling,
    hook,
    contrast,
    openLoop,
    filler,
    number: numberScore,
    emotion,
  };
  return { ...signals, quotability: quotability(sentence, text, signals) };
}

/** Words scored ±1 by AFINN (want, yes, agree) say little: they count 0.3. */
function weighEmotion(score: number): number {
  const strength = Math.abs(score);
  return strength >= 2 ? strength : strength >= 1 ? 0.3 : 0;
}

function quotability(sentence: Sentence, text: string, s: Omit<SentenceSignals, 'quotability'>): number {
  const w = sentence.words;
  const lengthFit = w < 6 ? 0 : w < 9 ? 0.6 : w <= 28 ? 1 : w <= 40 ? 0.6 : 0.25;
  const content =
    0.35 * s.hook +
    0.2 * clamp01(Math.abs(s.sentiment.comparative) * 3) +
    0.15 * s.contrast +
    0.1 * (ABSOLUTES.test(text) ? 1 : 0) +
    0.1 * (/\byou(?:'re|r)?\b/.test(text) ? 1 : 0) +
    0.1 * (s.numbers.length > 0 ? 1 : 0);
  const penalty =
    0.6 * s.filler +
    Math.min(0.4, (s.disfluencies / Math.max(w, 1)) * 4) +
    (s.dangling ? 0.15 : 0) +
    (s.question ? 0.1 : 0);
  return clamp01(lengthFit * (0.25 + content) - penalty);
}
