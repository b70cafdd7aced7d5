import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { StoredActivityEvent } from '../../../shared/api/activity.js';
import type { ActivityDataArgs, ActivityLevel, ActivityType } from '../../../shared/activity-events.js';
import type { ActivityRepo } from './repo.js';

/**
 * What the operator sees the bridge doing: stored (Activity page, 14 days) and pushed to
 * every /events subscriber. Messages are for people; `data` carries ids for links.
 */
export class ActivityLog {
  private readonly emitter = new EventEmitter();

  constructor(
    private readonly repo: ActivityRepo,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Records one event of the typed union (shared/activity-events.ts): its data is checked by type. */
  record<T extends ActivityType>(
    type: T,
    level: ActivityLevel,
    message: string,
    ...[data = null]: ActivityDataArgs<T>
  ): StoredActivityEvent {
    const stored = data as Record<string, unknown> | null;
    const event = this.repo.insert({ at: this.now().toISOString(), type, level, message, data: stored });
    if (level !== 'info') this.logger[level === 'error' ? 'error' : 'warn']({ type, data }, message);
    this.emitter.emit('event', event);
    return event;
  }

  subscribe(listener: (event: StoredActivityEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  list(filter: { limit: number; level?: string; type?: string; beforeId?: number }): StoredActivityEvent[] {
    return this.repo.list(filter);
  }
}
