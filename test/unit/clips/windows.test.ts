import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeTranscript } from '../../../main/areas/clips/analyze.js';
import { selectClips } from '../../../main/areas/clips/select.js';
import { parseTranscript } from '../../../main/areas/clips/parse.js';
import { segmentSentences } from '../../../main/areas/clips/sentences.js';
import { sentenceSignals } from '../../../main/areas/clips/signals.js';
import { buildTopicModel } from '../../../main/areas/clips/topics.js';
import {
  calibrate,
  lengthFit,
  MAX_WINDOW_WORDS,
  scoreWindows,
  type Candidate,
} from '../../../main/areas/clips/windows.js';
import { fitClip } from '../../../shared/clip-fit.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/transcripts/${name}`, import.meta.url), 'utf8');
const transcripts = {
  interview: fixture('interview.txt'),
  solo: fixture('solo.srt'),
  panel: fixture('panel.vtt'),
};

describe('calibration and length', () => {
  it('maps raw scores monotonically into 0..1', () => {
    const values = [-1, 0, 0.2, 0.4, 0.6, 1].map(calibrate);
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThan(values[i - 1]!);
    expect(values[0]!).toBeGreaterThanOrEqual(0);
    expect(values.at(-1)!).toBeLessThanOrEqual(1);
    expect(calibrate(0.4)).toBeCloseTo(0.5, 10);
  });
  it('prefers 25–60 s and refuses outside 15–90 s', () => {
    expect(lengthFit(14.9)).toBe(0);
    expect(lengthFit(90.1)).toBe(0);
    expect(lengthFit(40)).toBe(1);
    expect(lengthFit(15)).toBeLessThan(lengthFit(25));
    expect(lengthFit(90)).toBeLessThan(lengthFit(60));
  });
});

describe('selectClips', () => {
  const c = (from: number, start: number, end: number, confidence: number, topic = 0): Candidate => ({
    from,
    to: from,
    start,
    end,
    confidence,
    topic,
  });

  it('never overlaps, sorts by confidence and stops at the maximum', () => {
    const picked = selectClips(
      [c(0, 0, 30, 0.9), c(1, 20, 50, 0.95), c(2, 50, 80, 0.5), c(3, 100, 130, 0.7)],
      5,
    );
    expect(picked.map((p) => p.confidence)).toEqual([0.95, 0.7, 0.5]);
    expect(selectClips([c(0, 0, 30, 0.9), c(1, 40, 70, 0.8)], 1)).toHaveLength(1);
  });

  it('spreads across topics: a close second from a new topic beats a third from the same one', () => {
    const picked = selectClips(
      [c(0, 0, 30, 0.9, 1), c(1, 40, 70, 0.89, 1), c(2, 80, 110, 0.88, 1), c(3, 120, 150, 0.8, 2)],
      3,
    );
    expect(picked.map((p) => p.topic).sort()).toEqual([1, 1, 2]);
  });

  it('picks what the plain greedy picks (every overlap dropped after each pick) on random windows', () => {
    /** The selection as first written: every window read in every round, the list filtered after each pick. */
    const plainGreedy = (candidates: readonly Candidate[], max: number): Candidate[] => {
      let open = [...candidates].sort(
        (a, b) => b.confidence - a.confidence || a.start - b.start || a.end - b.end,
      );
      const taken: Candidate[] = [];
      const perTopic = new Map<number, number>();
      while (taken.length < max && open.length > 0) {
        let best = open[0]!;
        let bestValue = -1;
        for (const candidate of open) {
          const value = candidate.confidence * 0.92 ** (perTopic.get(candidate.topic) ?? 0);
          const earlier =
            candidate.start < best.start || (candidate.start === best.start && candidate.end < best.end);
          if (value > bestValue || (value === bestValue && earlier)) {
            best = candidate;
            bestValue = value;
          }
        }
        taken.push(best);
        perTopic.set(best.topic, (perTopic.get(best.topic) ?? 0) + 1);
        open = open.filter((other) => other.end <= best.start || best.end <= other.start);
      }
      return taken.sort((a, b) => b.confidence - a.confidence || a.start - b.start);
    };
    let state = 42;
    const random = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    for (let round = 0; round < 200; round++) {
      const windows = Array.from({ length: 5 + Math.floor(random() * 300) }, (_, index) => {
        // Dense starts and a few lengths, the longest often: windows just reaching into a pick.
        const start = Math.floor(random() * 600);
        const length = [15, 30, 89, 90][Math.floor(random() * 4)]!;
        // Coarse confidences and few topics, so ties and discounts decide often.
        return c(index, start, start + length, Math.ceil(random() * 20) / 20, Math.floor(random() * 4));
      });
      // As scoreWindows lists them (by start) in half the rounds, shuffled in the others.
      if (round % 2 === 0) windows.sort((a, b) => a.start - b.start);
      const max = 1 + Math.floor(random() * 25);
      expect(selectClips(windows, max)).toEqual(plainGreedy(windows, max));
    }
  });

  it('drops the longest window that reaches a second into a pick, and keeps one that ends where it starts', () => {
    const pick = c(0, 100, 130, 0.9);
    expect(selectClips([pick, c(1, 11, 101, 0.8)], 2)).toEqual([pick]);
    expect(selectClips([pick, c(1, 10, 100, 0.8)], 2)).toHaveLength(2);
  });

  it('breaks ties by the earlier, then the shorter window', () => {
    const picked = selectClips([c(1, 50, 80, 0.8), c(0, 10, 50, 0.8), c(2, 10, 40, 0.8)], 1);
    expect(picked[0]).toMatchObject({ start: 10, end: 40 });
  });
});

describe('analyzeTranscript', () => {
  for (const [name, text] of Object.entries(transcripts)) {
    it(`${name}: 15–90 s clips on sentence boundaries, never overlapping, sorted, with every field`, () => {
      const result = analyzeTranscript(text, { maxClips: 20 });
      expect(result.timing).toBe('stamped');
      const clips = result.suggestedClips;
      expect(clips.length).toBeGreaterThanOrEqual(5);
      expect(clips.length).toBeLessThanOrEqual(20);
      for (const [i, clip] of clips.entries()) {
        expect(clip.duration).toBeGreaterThanOrEqual(15);
        expect(clip.duration).toBeLessThanOrEqual(90);
        expect(clip.endTime - clip.startTime).toBeCloseTo(clip.duration, 2);
        expect(clip.confidence).toBeGreaterThanOrEqual(0);
        expect(clip.confidence).toBeLessThanOrEqual(1);
        if (i > 0) expect(clip.confidence).toBeLessThanOrEqual(clips[i - 1]!.confidence);
        expect(clip.hookQuote).toMatch(/^[A-Z0-9"'].*[.!?…]["'”’)]*$/);
        expect(clip.reason).toMatch(/^[A-Z].+\.$/);
        expect(clip.topic.split(', ').length).toBeGreaterThanOrEqual(1);
        expect(clip.fitsPlatforms).toEqual(
          fitClip({ durationS: clip.duration, ratios: [], targets: null }).fitsPlatforms,
        );
        expect(clip.signals.length).toBeGreaterThan(0);
        for (const other of clips.slice(i + 1)) {
          expect(clip.endTime <= other.startTime || other.endTime <= clip.startTime).toBe(true);
        }
      }
      expect(result.topics.length).toBeGreaterThanOrEqual(2);
      expect(result.topics.reduce((sum, t) => sum + t.share, 0)).toBeCloseTo(1, 2);
    });
  }

  it('starts and ends every clip on a sentence boundary', () => {
    const result = analyzeTranscript(transcripts.interview, { maxClips: 10 });
    const lines = transcripts.interview.split('\n');
    for (const clip of result.suggestedClips) {
      // The quote is one of the clip's sentences, cleaned: its first words are in the transcript.
      const head = clip.hookQuote
        .replace(/[.!?…]$/, '')
        .split(' ')
        .slice(1, 5)
        .join(' ');
      expect(lines.some((line) => line.includes(head))).toBe(true);
    }
    const plain = 'First sentence is here. Second one follows it. '.repeat(40);
    const estimated = analyzeTranscript(plain, { maxClips: 5 });
    const sentenceLength = 4 / 2.5; // four words at 150 wpm
    for (const clip of estimated.suggestedClips) {
      const boundaries = clip.startTime / sentenceLength;
      expect(Math.abs(boundaries - Math.round(boundaries))).toBeLessThan(1e-6);
      expect(
        Math.abs(clip.endTime / sentenceLength - Math.round(clip.endTime / sentenceLength)),
      ).toBeLessThan(1e-6);
    }
  });

  it('estimates plain text at 150 wpm and says so', () => {
    const plain = transcripts.interview.replace(/^\[\d\d:\d\d:\d\d\] /gm, '');
    const result = analyzeTranscript(plain, { maxClips: 5 });
    expect(result.timing).toBe('estimated');
    expect(result.format).toBe('plain');
    expect(result.stats.durationS).toBeCloseTo(result.stats.words / 2.5, 0);
  });

  it('is deterministic: the same input gives the same output', () => {
    for (const text of Object.values(transcripts)) {
      expect(analyzeTranscript(text, { maxClips: 8 })).toEqual(analyzeTranscript(text, { maxClips: 8 }));
    }
  });

  it('names what scored, in the signals and in the reason', () => {
    const [top] = analyzeTranscript(transcripts.solo, { maxClips: 1 }).suggestedClips;
    const names = top!.signals.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['hook', 'emotion', 'quote']));
    const hook = top!.signals.find((s) => s.name === 'hook')!;
    expect(hook.evidence.length).toBeGreaterThan(0);
    expect(top!.reason.toLowerCase()).toContain(hook.evidence[0]!);
    const sorted = top!.signals.map((s) => Math.abs(s.contribution));
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
  });

  it('answers no clips, with a warning, for a transcript shorter than a clip', () => {
    const result = analyzeTranscript('[00:00:01] Hi.\n[00:00:03] Bye.', { maxClips: 5 });
    expect(result.suggestedClips).toEqual([]);
    expect(result.warnings.join(' ')).toMatch(/a clip needs at least 15 s/);
  });
});

describe('the work per window start is bounded (analysis stays linear)', () => {
  /** Stamped lines whose time never advances: no window ever reaches 15 s. */
  const frozen = (lines: number) =>
    Array.from(
      { length: lines },
      (_, i) => `[00:00:00] Line ${i} says a few more words about the show.`,
    ).join('\n');
  const workFor = (transcript: string) => {
    const sentences = segmentSentences(parseTranscript(transcript).cues);
    const input = { sentences, signals: sentences.map(sentenceSignals), topics: buildTopicModel(sentences) };
    const work = { grown: 0 };
    scoreWindows(input, 0.05, work);
    return { sentences: sentences.length, grown: work.grown, wordsEach: sentences[0]!.words };
  };

  it('grows at most MAX_WINDOW_WORDS worth of sentences from each start, even when times do not advance', () => {
    const small = workFor(frozen(400));
    const large = workFor(frozen(1600));
    const perStart = Math.floor(MAX_WINDOW_WORDS / small.wordsEach) + 1; // each line is one sentence
    expect(small.grown).toBeLessThanOrEqual(small.sentences * perStart);
    expect(large.grown).toBeLessThanOrEqual(large.sentences * perStart);
    // Four times the transcript, about four times the work (it was sixteen times).
    expect(large.grown).toBeLessThanOrEqual(4.5 * small.grown);
  });
});
