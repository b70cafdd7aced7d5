import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { StoredActivityEvent } from '../../../shared/api/activity.js';
import type { ActivityDataArgs, ActivityLevel, ActivityType } from '../../../shared/activity-events.js';
import type { ActivityListFilter, ActivityRepo } from './repo.js';
import { redactRtmpKeys, redactSecrets } from '../secret-redaction.js';
import type { GroupCommit } from '../commit-group.js';

/**
 * What the operator sees the bridge doing: stored (Activity page, 14 days) and pushed to
 * every /events subscriber. Messages are for people; `data` carries ids for links.
 */
export class ActivityLog {
  private readonly emitter = new EventEmitter();
  /** Events recorded but not stored yet: written together, once per turn of the event loop. */
  private pending: StoredActivityEvent[] = [];
  /** A write of `pending` is scheduled (a turn's timer, or a work of the next group commit). */
  private writeScheduled = false;
  private flushing: NodeJS.Immediate | null = null;
  private nextId: number;

  /**
   * `groupCommit`: pending events are written by the next group commit, in the transaction that
   * stores the turn's webhook deliveries, not in a commit of their own; without one, each turn's
   * events are written in a transaction of theirs.
   */
  constructor(
    private readonly repo: ActivityRepo,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
    private readonly groupCommit?: GroupCommit,
  ) {
    this.emitter.setMaxListeners(0);
    // One bridge owns the data dir (kernel/data-dir-lock.ts), so it can number the events itself.
    this.nextId = repo.maxId() + 1;
  }

  /** Records one event of the typed union (shared/activity-events.ts): its data is checked by type. */
  record<T extends ActivityType>(
    type: T,
    level: ActivityLevel,
    message: string,
    ...[data = null]: ActivityDataArgs<T>
  ): StoredActivityEvent {
    // Activity is stored and shown: no secret in it, by name or by value (DESIGN §7).
    const stored = data === null ? null : redactSecrets(data as Record<string, unknown>);
    const event = {
      id: this.nextId++,
      at: this.now().toISOString(),
      type,
      level,
      message: redactRtmpKeys(message),
      data: stored,
    };
    // Off the hot path: a webhook's answer does not wait for its activity rows (a crash loses at
    // most the events of the current turn of the event loop; the log is for people, not recovery).
    this.pending.push(event);
    this.scheduleWrite();
    if (level !== 'info')
      this.logger[level === 'error' ? 'error' : 'warn']({ type, data: stored }, event.message);
    this.emitter.emit('event', event);
    return event;
  }

  subscribe(listener: (event: StoredActivityEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  list(filter: ActivityListFilter): StoredActivityEvent[] {
    this.flush();
    return this.repo.list(filter);
  }

  private scheduleWrite(): void {
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    if (!this.groupCommit) {
      this.flushing = setImmediate(() => this.flush());
      return;
    }
    this.groupCommit(() => this.flush()).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'activity events not stored'),
    );
  }

  /** Stores what is pending now (also before the database closes). */
  flush(): void {
    this.writeScheduled = false;
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = null;
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    try {
      this.repo.insertAll(events);
    } catch (error) {
      // E.g. recorded after the database closed during a stop: the log line is all that is left.
      this.logger.warn({ err: error, events: events.length }, 'activity events not stored');
    }
  }
}
