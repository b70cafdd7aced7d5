import { builtClipAnalysis } from './built.js';
import { stampedTranscriptOf, threeHourTranscript } from './transcripts.js';

/**
 * The clips bench's child process (`CLIPS_BENCH_CHILD=<format>` or `size:<chars>`), so its peak
 * resident memory (resourceUsage().maxRSS) is the analysis' own, not the whole bench run's. It
 * imports the transcripts and the built analysis only: the bench's own module loads the whole
 * bridge's source through tsx, and a heap that size made the analysis' garbage collection, under
 * the bridge's V8 flags, cost a fifth more than in the bridge's clip worker.
 */

// Five: with three, one slow minute of this shared host moved the median by a fifth.
export const RUNS = Number(process.env.BENCH_CLIPS_RUNS ?? 5);
const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));

export interface ChildFigures {
  ms: number[];
  rssBeforeMb: number;
  maxRssMb: number;
  heapUsedAfterMb: number;
  words: number;
  sentences: number;
  windows: number;
  clips: number;
}

/** A three-hour transcript analysed once to warm up, then RUNS times. */
async function childMain(format: 'stamped' | 'srt' | 'plain'): Promise<void> {
  const transcript = threeHourTranscript(format);
  const analyzeTranscript = await builtClipAnalysis();
  const rssBefore = process.memoryUsage().rss;
  const times: number[] = [];
  let result = analyzeTranscript(transcript, { maxClips: 20 });
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = analyzeTranscript(transcript, { maxClips: 20 });
    times.push(performance.now() - started);
  }
  const figures: ChildFigures = {
    ms: times,
    rssBeforeMb: mb(rssBefore),
    maxRssMb: mb(process.resourceUsage().maxRSS * 1024),
    heapUsedAfterMb: mb(process.memoryUsage().heapUsed),
    words: result.stats.words,
    sentences: result.stats.sentences,
    windows: result.stats.windowsScored,
    clips: result.suggestedClips.length,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

export interface SizeFigures {
  chars: number;
  ms: number;
  peakAboveIdleMb: number;
  afterAboveIdleMb: number;
  words: number;
}

/** One analysis of a transcript of `chars` characters: time, peak RSS above idle, RSS after (GC'd). */
async function sizeChildMain(chars: number): Promise<void> {
  const transcript = stampedTranscriptOf(chars);
  const analyzeTranscript = await builtClipAnalysis();
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const idle = process.memoryUsage().rss;
  const started = performance.now();
  const result = analyzeTranscript(transcript, { maxClips: 5 });
  const ms = performance.now() - started;
  const peak = process.resourceUsage().maxRSS * 1024;
  gc?.();
  const figures: SizeFigures = {
    chars: transcript.length,
    ms,
    peakAboveIdleMb: mb(peak - idle),
    afterAboveIdleMb: mb(process.memoryUsage().rss - idle),
    words: result.stats.words,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

const mode = process.env.CLIPS_BENCH_CHILD;
if (mode === 'stamped' || mode === 'srt' || mode === 'plain') await childMain(mode);
else if (mode?.startsWith('size:')) await sizeChildMain(Number(mode.slice('size:'.length)));
