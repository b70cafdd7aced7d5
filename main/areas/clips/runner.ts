import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { analyzeTranscript, type ClipAnalysis } from './analyze.js';
import { TranscriptError } from './parse.js';

export interface AnalysisRequest {
  id: number;
  transcript: string;
  maxClips: number;
}

export type AnalysisReply =
  | { id: number; ok: true; analysis: ClipAnalysis }
  | { id: number; ok: false; rule: TranscriptError['rule'] | null; message: string };

interface Waiting {
  request: AnalysisRequest;
  resolve: (analysis: ClipAnalysis) => void;
  reject: (error: Error) => void;
}

/**
 * Runs clip analysis on a worker thread: a day-long transcript takes seconds of CPU, and the
 * bridge must keep answering webhooks and /events meanwhile. One long-lived worker, started on
 * first use and restarted after a crash; requests queue in its message port (FIFO). Where a
 * worker cannot be started at all (its file unloadable, e.g. inside a packed archive), the
 * analysis runs on the calling thread instead, and says so once in the log.
 */
export class ClipAnalysisRunner {
  private worker: Worker | null = null;
  /** Set once a worker has answered: later failures are crashes, not "cannot start here". */
  private workerProven = false;
  private inThread = false;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(private readonly logger?: Logger) {}

  analyze(transcript: string, options: { maxClips: number }): Promise<ClipAnalysis> {
    const request: AnalysisRequest = { id: this.nextId++, transcript, maxClips: options.maxClips };
    return new Promise<ClipAnalysis>((resolve, reject) => {
      const waiting = { request, resolve, reject };
      if (this.inThread) return runInThread(waiting);
      const worker = this.worker ?? this.startWorker();
      this.waiting.set(request.id, waiting);
      worker.ref();
      worker.postMessage(request);
    });
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    // Refused before terminating, so the worker's exit is not taken for a failure to start.
    this.failAll(new Error('clip analysis stopped: the bridge is shutting down'));
    await worker?.terminate();
  }

  private startWorker(): Worker {
    const worker = spawnWorker();
    worker.unref();
    worker.on('message', (reply: AnalysisReply) => {
      this.workerProven = true;
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if (!waiting) return;
      if (reply.ok) waiting.resolve(reply.analysis);
      else if (reply.rule) waiting.reject(new TranscriptError(reply.rule, reply.message));
      else waiting.reject(new Error(`clip analysis failed: ${reply.message}`));
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.worker = null;
      if (this.workerProven)
        this.failAll(new Error(`clip analysis worker crashed: ${error.message}`, { cause: error }));
      else this.fallBackToThread(error);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      if (this.waiting.size === 0) return;
      if (this.workerProven) this.failAll(new Error(`clip analysis worker exited with code ${code}`));
      else this.fallBackToThread(new Error(`clip analysis worker exited with code ${code} before answering`));
    });
    this.worker = worker;
    return worker;
  }

  private fallBackToThread(error: Error): void {
    this.logger?.warn({ err: error }, 'clip analysis worker cannot start here; analysing on the main thread');
    this.inThread = true;
    const pending = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiting of pending) runInThread(waiting);
  }

  private failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}

function runInThread({ request, resolve, reject }: Waiting): void {
  setImmediate(() => {
    try {
      resolve(analyzeTranscript(request.transcript, { maxClips: request.maxClips }));
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

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
