import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { AppError } from '../../kernel/app-error.js';
import type { ClipAnalysis, KeptTranscript } from './analyze.js';
import { TranscriptError } from './parse.js';
import type { LiveMark } from './pin.js';

export interface AnalysisRequest {
  id: number;
  transcript: string;
  maxClips: number;
  marks: LiveMark[];
}

/** The answer and what is kept beside it for exports and review. */
export interface AnalysisOutcome {
  analysis: ClipAnalysis;
  kept: KeptTranscript;
}

export type AnalysisReply =
  | { id: number; started: true }
  | { id: number; ok: true; outcome: AnalysisOutcome }
  | { id: number; ok: false; rule: TranscriptError['rule'] | null; message: string };

/** An analysis that did not run or did not finish (busy, too long, its client gone): 503 with Retry-After. */
function unavailable(message: string, retryAfterS: number): AppError {
  return new AppError('unavailable', 'ANALYSIS_UNAVAILABLE', message, { retryAfterS });
}

export interface RunnerLimits {
  /** Analyses waiting behind the running one; one more is refused (default 2). */
  maxWaiting: number;
  /** An analysis running longer is stopped (default 20 s). */
  timeoutMs: number;
  /** After an analysis of at least this many characters the idle worker exits, returning its memory. */
  releaseAfterChars: number;
}

const DEFAULT_LIMITS: RunnerLimits = { maxWaiting: 2, timeoutMs: 20_000, releaseAfterChars: 256_000 };

interface Job {
  request: AnalysisRequest;
  signal: AbortSignal | undefined;
  resolve: (outcome: AnalysisOutcome) => void;
  reject: (error: Error) => void;
}

/**
 * Runs clip analysis on a worker thread, one at a time: a day-long transcript takes seconds of
 * CPU, and the bridge must keep answering webhooks and /events meanwhile. Bounded (issue #12):
 * one running and `maxWaiting` waiting, anything more refused at once; an analysis past
 * `timeoutMs`, or whose client went away, is stopped by ending its worker (the CPU work cannot
 * be interrupted otherwise); after a large transcript the idle worker exits so its memory goes
 * back to the system. Where a worker cannot be started at all (its file unloadable, e.g. inside
 * a packed archive), analyses run on the calling thread instead, and the log says so once.
 */
export class ClipAnalysisRunner {
  private worker: Worker | null = null;
  /** Set once a worker has answered: later failures are crashes, not "cannot start here". */
  private workerProven = false;
  private inThread = false;
  private running: (Job & { timer?: NodeJS.Timeout; onAbort: () => void }) | null = null;
  private readonly queue: Job[] = [];
  private nextId = 1;
  private stopped = false;
  private readonly limits: RunnerLimits;

  constructor(
    private readonly logger?: Logger,
    limits: Partial<RunnerLimits> = {},
    /** How a worker is started (tests start one that cannot load, to see the fallback). */
    private readonly spawn: () => Worker = spawnWorker,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  analyze(
    transcript: string,
    options: { maxClips: number; marks?: readonly LiveMark[]; signal?: AbortSignal },
  ): Promise<AnalysisOutcome> {
    if (this.stopped) return Promise.reject(new Error('clip analysis stopped: the bridge is shutting down'));
    const busy = this.running !== null;
    if (busy && this.queue.length >= this.limits.maxWaiting) {
      const seconds = Math.max(1, Math.ceil(this.limits.timeoutMs / 1000));
      return Promise.reject(
        unavailable(
          `clip analysis is busy: one transcript is being analysed and ${this.queue.length} wait; try again shortly`,
          seconds,
        ),
      );
    }
    return new Promise<AnalysisOutcome>((resolve, reject) => {
      const job: Job = {
        request: {
          id: this.nextId++,
          transcript,
          maxClips: options.maxClips,
          marks: [...(options.marks ?? [])],
        },
        signal: options.signal,
        resolve,
        reject,
      };
      if (options.signal?.aborted) return reject(cancelled());
      options.signal?.addEventListener('abort', () => this.dropWaiting(job), { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const error = new Error('clip analysis stopped: the bridge is shutting down');
    for (const job of this.queue.splice(0)) job.reject(error);
    if (this.running) this.finish(this.running, error);
    await this.endWorker();
  }

  private pump(): void {
    if (this.running || this.stopped) return;
    const job = this.queue.shift();
    if (!job) return;
    if (this.inThread) return this.runInThread(job);
    const onAbort = () => {
      if (this.running?.request.id !== job.request.id) return;
      this.finish(this.running, cancelled());
      void this.endWorker();
    };
    this.running = { ...job, onAbort };
    job.signal?.addEventListener('abort', onAbort, { once: true });
    const worker = this.worker ?? this.startWorker();
    worker.ref();
    worker.postMessage(job.request);
  }

  /** Stops the analysis `id` if it is still running when the time limit passes. */
  private timeLimit(id: number): NodeJS.Timeout {
    return setTimeout(() => {
      if (this.running?.request.id !== id) return;
      const seconds = Math.max(1, Math.round(this.limits.timeoutMs / 1000));
      this.finish(
        this.running,
        unavailable(
          `clip analysis stopped after ${seconds} s: the transcript is too long to analyse here`,
          seconds,
        ),
      );
      void this.endWorker();
    }, this.limits.timeoutMs);
  }

  /** Settles the running job and moves on to the next one. */
  private finish(
    running: NonNullable<ClipAnalysisRunner['running']>,
    outcome: Error | AnalysisOutcome,
  ): void {
    clearTimeout(running.timer);
    running.signal?.removeEventListener('abort', running.onAbort);
    if (this.running === running) this.running = null;
    if (outcome instanceof Error) running.reject(outcome);
    else running.resolve(outcome);
    const large = running.request.transcript.length >= this.limits.releaseAfterChars;
    if (this.queue.length === 0 && large) void this.endWorker();
    else if (this.queue.length === 0) this.worker?.unref();
    setImmediate(() => this.pump());
  }

  private dropWaiting(job: Job): void {
    const at = this.queue.indexOf(job);
    if (at === -1) return;
    this.queue.splice(at, 1);
    job.reject(cancelled());
  }

  private async endWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private startWorker(): Worker {
    const worker = this.spawn();
    worker.unref();
    worker.on('message', (reply: AnalysisReply) => {
      this.workerProven = true;
      const running = this.running;
      if (!running || running.request.id !== reply.id) return;
      if ('started' in reply) running.timer = this.timeLimit(running.request.id);
      else if (reply.ok) this.finish(running, reply.outcome);
      else if (reply.rule) this.finish(running, new TranscriptError(reply.rule, reply.message));
      else this.finish(running, new Error(`clip analysis failed: ${reply.message}`));
    });
    worker.on('error', (error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (!this.workerProven) return this.fallBackToThread(error);
      if (this.running)
        this.finish(this.running, new Error(`clip analysis worker crashed: ${error.message}`));
    });
    worker.on('exit', (code) => {
      // A worker this runner ended itself (timeout, cancel, release) is no longer this.worker.
      if (this.worker !== worker) return;
      this.worker = null;
      if (!this.running) return;
      if (!this.workerProven)
        return this.fallBackToThread(
          new Error(`clip analysis worker exited with code ${code} before answering`),
        );
      this.finish(this.running, new Error(`clip analysis worker exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private fallBackToThread(error: Error): void {
    this.logger?.warn({ err: error }, 'clip analysis worker cannot start here; analysing on the main thread');
    this.inThread = true;
    const running = this.running;
    if (!running) return;
    clearTimeout(running.timer);
    this.running = null;
    this.queue.unshift(running);
    this.pump();
  }

  /**
   * No worker: the analysis blocks this thread, so it cannot be timed out or cancelled midway.
   * Its code is loaded here, on first use: the bridge's start does not load the analysis (and its
   * sentiment lexicon) that normally runs on the worker only.
   */
  private runInThread(job: Job): void {
    const running = { ...job, onAbort: () => undefined };
    this.running = running;
    import('./analyze.js')
      .then(({ analyzeAndKeep }) =>
        analyzeAndKeep(job.request.transcript, { maxClips: job.request.maxClips, marks: job.request.marks }),
      )
      .then(
        (outcome) => this.finish(running, outcome),
        (error: unknown) => this.finish(running, error instanceof Error ? error : new Error(String(error))),
      );
  }
}

const cancelled = () => unavailable('clip analysis cancelled: the client went away', 1);

/**
 * Built, the worker is plain JS next to this file. From source (tests, `tsx`), it is TypeScript:
 * a small bootstrap registers tsx's loader inside the worker first (Node 20 applies neither the
 * parent's loader hooks nor `--import` in execArgv to a worker's entry module).
 */
function spawnWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./worker.js', import.meta.url));
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', import.meta.url).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true },
  );
}
