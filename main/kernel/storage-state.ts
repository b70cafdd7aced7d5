import type { LogFileHealth } from './log-file.js';

/**
 * What the bridge knows of its disk (DESIGN §7: "a full disk is an error, never a hang"). The
 * database says it is full with SQLITE_FULL (or an ENOSPC/EDQUOT of its own files); the log file
 * with the lines it dropped. Noted by whoever meets it (the group commit, the HTTP error
 * handler), cleared by the next write that lands: space returned, nothing to do by hand.
 */
export class StorageState {
  private fullSince: string | null = null;

  constructor(
    private readonly now: () => Date,
    private readonly logFile: () => LogFileHealth | null = () => null,
  ) {}

  /** A write was refused for want of space. */
  noteFull(): void {
    this.fullSince ??= this.now().toISOString();
  }

  /** A write landed: there is space again. */
  noteWritten(): void {
    this.fullSince = null;
  }

  /** Whether an error is the disk (or the database's growth limit) being full. */
  static isFull(error: unknown): boolean {
    if (typeof error !== 'object' || error === null) return false;
    const code = (error as { code?: unknown }).code;
    return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT';
  }

  /** Notes the error if it is a full disk; says whether it was. */
  noteIfFull(error: unknown): boolean {
    if (!StorageState.isFull(error)) return false;
    this.noteFull();
    return true;
  }

  /** Why storage makes the bridge degraded, for /health with the key; empty when it does not. */
  reasons(): string[] {
    const reasons: string[] = [];
    if (this.fullSince !== null)
      reasons.push(
        `storage full: the database cannot grow (since ${this.fullSince}); writes are refused (webhooks 503, API 507) until space returns`,
      );
    const log = this.logFile();
    if (log?.failing)
      reasons.push(`log: ${log.dropped} line${log.dropped === 1 ? '' : 's'} dropped (${log.failing})`);
    return reasons;
  }
}
