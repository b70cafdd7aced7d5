import { closeSync, write, writeSync } from 'node:fs';
import { appendFlags, openNoFollow } from './private-files.js';

/**
 * The log file's writer (DESIGN §7: "a full disk is an error, never a hang"). pino's own file
 * destination (sonic-boom) retries a failed write forever and is flushed by an exit hook that
 * throws when the file never opened; on a full disk the bridge stopped answering and ignored
 * SIGTERM. This writer never blocks and never retries a line: lines wait in a bounded queue, one
 * write at a time; a write that fails (ENOSPC, EIO, EFBIG, ...) drops what it carried and counts
 * it, and the next write is tried a second later with whatever queued meanwhile (beyond the
 * queue's bound, lines are dropped and counted at once). When a write succeeds again, a line
 * saying how many were dropped goes first. Nothing here keeps the process alive.
 */
export interface LogFileHealth {
  /** Lines lost since the start. */
  dropped: number;
  /** Set while writes fail: the error code of the last one (`ENOSPC`). */
  failing: string | null;
}

export interface LogFileOptions {
  /** What may wait for the disk; beyond it lines are dropped (default 4 MiB). */
  maxQueuedBytes?: number;
  /** How long after a failed write the next is tried (default 1 s). */
  retryMs?: number;
  now?: () => number;
}

export class LogFile {
  private readonly fd: number;
  private queue: string[] = [];
  private queuedBytes = 0;
  private writing = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private dropped = 0;
  /** Dropped lines not yet reported in the file itself. */
  private unreported = 0;
  private failing: string | null = null;
  private retryAt = 0;
  private closed = false;
  private readonly maxQueuedBytes: number;
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(file: string, options: LogFileOptions = {}) {
    // Opened here, synchronously: a file that cannot be opened is a start-up error, said once. Never
    // through a link (issue #35.5).
    this.fd = openNoFollow(file, appendFlags);
    this.maxQueuedBytes = options.maxQueuedBytes ?? 4 * 1024 * 1024;
    this.retryMs = options.retryMs ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /** pino's stream interface: one JSON line. Always true (a stream that says false is waited on). */
  write(line: string): boolean {
    if (this.closed) return true;
    if (this.queuedBytes + line.length > this.maxQueuedBytes) {
      this.drop(1);
      return true;
    }
    this.queue.push(line);
    this.queuedBytes += line.length;
    this.kick();
    return true;
  }

  health(): LogFileHealth {
    return { dropped: this.dropped, failing: this.failing };
  }

  /**
   * Writes what is queued now, synchronously (at stop). A write that fails drops the rest: the
   * disk is full, and the process must be able to end.
   */
  flushSync(): void {
    if (this.closed || this.queue.length === 0) return;
    const lines = this.takeQueue();
    try {
      writeSync(this.fd, this.withReport(lines));
      this.unreported = 0;
    } catch (error) {
      this.failed(error, lines.length);
    }
  }

  /** Flushes and closes the file; later lines are ignored. */
  close(): void {
    if (this.closed) return;
    this.flushSync();
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    // An async write still in flight holds the fd: closed when it ends.
    if (!this.writing) closeSync(this.fd);
  }

  private kick(): void {
    if (this.writing || this.queue.length === 0 || this.closed) return;
    const wait = this.retryAt - this.now();
    if (wait > 0) {
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = null;
        this.kick();
      }, wait).unref();
      return;
    }
    const reporting = this.unreported > 0;
    const buffer = Buffer.from(this.withReport(this.takeQueue()));
    this.writing = true;
    this.writeFrom(buffer, 0, reporting);
  }

  /** Writes `buffer` from `offset` on, as many writes as a short write needs. */
  private writeFrom(buffer: Buffer, offset: number, reporting: boolean): void {
    write(this.fd, buffer, offset, buffer.length - offset, null, (error, written) => {
      if (!error && offset + written < buffer.length)
        return this.writeFrom(buffer, offset + written, reporting);
      this.writing = false;
      if (this.closed) {
        closeSync(this.fd);
        return;
      }
      if (error) {
        // Lines wholly written before the failure are in the file; the rest are lost (a report
        // line that did not make it is not a lost line: its count is still unreported).
        const lost = countLines(buffer, offset);
        if (reporting && offset > 0) this.unreported = 0;
        this.failed(error, reporting && offset === 0 ? lost - 1 : lost);
      } else {
        this.failing = null;
        this.unreported = 0;
      }
      this.kick();
    });
  }

  private takeQueue(): string[] {
    const lines = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    return lines;
  }

  /** The lines as one text, after a line saying how many were lost before them (if any were). */
  private withReport(lines: string[]): string {
    if (this.unreported === 0) return lines.join('');
    const report = {
      level: 40,
      time: this.now(),
      dropped: this.unreported,
      msg: `${this.unreported} log line${this.unreported === 1 ? '' : 's'} dropped: the log file could not be written`,
    };
    return `${JSON.stringify(report)}\n${lines.join('')}`;
  }

  private failed(error: unknown, lines: number): void {
    this.failing = (error as NodeJS.ErrnoException).code ?? 'EIO';
    this.retryAt = this.now() + this.retryMs;
    this.drop(lines);
  }

  private drop(lines: number): void {
    this.dropped += lines;
    this.unreported += lines;
  }
}

/** Whole or partial lines in `buffer` from `offset` on (each ends with a newline). */
function countLines(buffer: Buffer, offset: number): number {
  let count = 0;
  for (let index = buffer.indexOf(10, offset); index !== -1; index = buffer.indexOf(10, index + 1)) count++;
  return count;
}
