/** The wait for a lane ran out: the caller did nothing. */
export class LaneBusyError extends Error {
  override name = 'LaneBusyError';
}

/**
 * One holder at a time per lane (a CRM record), in arrival order: the one lock of a record,
 * held by the job queue for every job of the lane and by work outside the queue through
 * `JobQueue.withLane`. A waiter may give up after `waitMs`; it then never runs and never
 * holds up the holders behind it.
 */
export class LaneLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>, waitMs?: number): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    try {
      if (!(await within(previous, waitMs))) {
        throw new LaneBusyError(`${key} is busy (waited ${waitMs} ms)`);
      }
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Whether anyone holds or waits for the key. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }

  /** Every key held or waited for (the queue claims no job of these lanes). */
  busyKeys(): string[] {
    return [...this.tails.keys()];
  }
}

function within(promise: Promise<void>, waitMs: number | undefined): Promise<boolean> {
  if (waitMs === undefined) return promise.then(() => true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, waitMs));
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
