import type { Logger } from 'pino';

export interface PeriodicTask {
  /** For logs ("analytics collection", "peer probes"). */
  name: string;
  /** Milliseconds until the next run, asked again after every run; null: not now, ask again in a minute. */
  nextInMs: () => number | null;
  run: () => Promise<unknown> | unknown;
  /** Run once right at start (catch-up, first probe) instead of waiting a first interval. */
  runAtStart?: boolean;
}

// setTimeout holds at most ~24.8 days; longer waits are re-asked.
const MAX_TIMER_MS = 2 ** 31 - 1;
const RECHECK_MS = 60_000;

/**
 * The one place periodic work is timed (collection, broadcast auto-sync, peer probes,
 * retention pruning). A task never overlaps itself; a failing run is logged and the task
 * keeps its schedule. Stopping waits for the runs under way.
 */
export class Scheduler {
  private readonly tasks: PeriodicTask[] = [];
  private readonly timers = new Map<PeriodicTask, NodeJS.Timeout>();
  private readonly running = new Map<PeriodicTask, Promise<void>>();
  private started = false;

  constructor(private readonly logger: Logger) {}

  add(task: PeriodicTask): void {
    this.tasks.push(task);
    if (this.started) this.arm(task, task.runAtStart ?? false);
  }

  /** Convenience for a fixed interval. */
  every(name: string, intervalMs: number, run: () => Promise<unknown> | unknown, runAtStart = false): void {
    this.add({ name, nextInMs: () => intervalMs, run, runAtStart });
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const task of this.tasks) this.arm(task, task.runAtStart ?? false);
  }

  /** Runs a task now (e.g. the operator asked), unless it is already running. */
  runNow(task: PeriodicTask): Promise<void> {
    return this.running.get(task) ?? this.execute(task);
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled(this.running.values());
  }

  private arm(task: PeriodicTask, now: boolean): void {
    clearTimeout(this.timers.get(task));
    if (!this.started) return;
    const next = now ? 0 : task.nextInMs();
    const delay = next === null ? RECHECK_MS : Math.min(MAX_TIMER_MS, Math.max(0, next));
    const timer = setTimeout(() => {
      this.timers.delete(task);
      if (next === null || delay < next) return this.arm(task, false);
      void this.runNow(task);
    }, delay);
    timer.unref();
    this.timers.set(task, timer);
  }

  private execute(task: PeriodicTask): Promise<void> {
    const run = (async () => {
      try {
        await task.run();
      } catch (error) {
        this.logger.warn({ err: error, task: task.name }, 'periodic task failed');
      }
    })().finally(() => {
      this.running.delete(task);
      this.arm(task, false);
    });
    this.running.set(task, run);
    return run;
  }
}
