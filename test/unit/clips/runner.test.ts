import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeTranscript } from '../../../main/areas/clips/analyze.js';
import { TranscriptError } from '../../../main/areas/clips/parse.js';
import { ClipAnalysisRunner } from '../../../main/areas/clips/runner.js';

const interview = readFileSync(new URL('../../fixtures/transcripts/interview.txt', import.meta.url), 'utf8');
const runner = new ClipAnalysisRunner();
afterAll(() => runner.stop());

describe('ClipAnalysisRunner (worker thread)', () => {
  it('answers what the analysis answers in this thread, for requests in flight together', async () => {
    const [a, b] = await Promise.all([
      runner.analyze(interview, { maxClips: 3 }),
      runner.analyze(interview, { maxClips: 6 }),
    ]);
    expect(a.analysis).toEqual(analyzeTranscript(interview, { maxClips: 3 }));
    expect(b.analysis.suggestedClips).toHaveLength(6);
  });

  it('passes a transcript that cannot be read back as a TranscriptError with its rule', async () => {
    const error = await runner.analyze('WEBVTT\n\n', { maxClips: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TranscriptError);
    expect(error).toMatchObject({ rule: 'unparseable', message: expect.stringMatching(/no cue/) });
  });

  it('leaves this thread free while it works', async () => {
    const long = Array.from({ length: 3 }, () => interview).join('\n');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await runner.analyze(long, { maxClips: 20 });
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  it('refuses work in flight when stopped', async () => {
    const own = new ClipAnalysisRunner();
    const outcome = own.analyze(interview, { maxClips: 5 }).catch((error: unknown) => error);
    await own.stop();
    expect(await outcome).toMatchObject({ message: expect.stringMatching(/stopped/) });
  });
});

describe('ClipAnalysisRunner where no worker can start (e.g. inside a packed archive)', () => {
  it('analyses on this thread instead, the same answer, and keeps doing so', async () => {
    const unloadable = () => new Worker('throw new Error("cannot load the worker here")', { eval: true });
    const own = new ClipAnalysisRunner(undefined, {}, unloadable);
    try {
      expect((await own.analyze(interview, { maxClips: 3 })).analysis).toEqual(
        analyzeTranscript(interview, { maxClips: 3 }),
      );
      const error = await own.analyze('WEBVTT\n\n', { maxClips: 5 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TranscriptError);
    } finally {
      await own.stop();
    }
  });
});
