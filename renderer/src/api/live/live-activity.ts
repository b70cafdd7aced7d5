import type { ActivityEvent, parseActivityEvent } from '../../../../shared/activity-events.js';
import { bridgeUrl } from '../transport/client.js';
import { reconnectDelay } from './reconnect-delay.js';

/**
 * One Server-Sent Events connection to GET /events for the whole dashboard, as an external store.
 * EventSource cannot send headers, so the key goes in `?key=`. The browser's own reconnect gives
 * up on HTTP errors, so this closes on any error and reconnects itself with capped, jittered backoff.
 * Events are parsed by type (shared/activity-events.ts): one of a type this build does not
 * know (a newer bridge) or with a payload that does not match its type is skipped, with one
 * console warning per type; it still lists on the Activity page, which reads stored history.
 */
export type LiveStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

export interface LiveSnapshot {
  status: LiveStatus;
  /** Epoch ms of the next attempt while reconnecting. */
  retryAt: number | null;
  /** Failed attempts in a row. */
  failures: number;
  /** Events received live, newest first (at most MAX_EVENTS). */
  events: readonly ActivityEvent[];
}

const MAX_EVENTS = 200;

/**
 * The event schemas (shared/activity-events.ts, with the contracts of every area whose words they
 * use) come in a chunk of their own, asked for when the connection opens: the first screen does not
 * wait for them (issue #13.4). Events received before it is in wait for it, in order.
 */
let eventParser: Promise<typeof parseActivityEvent> | null = null;
const loadEventParser = () =>
  (eventParser ??= import('../../../../shared/activity-events.js').then(
    (module) => module.parseActivityEvent,
    (error: unknown) => {
      eventParser = null; // asked again with the next event
      throw error;
    },
  ));

export interface LiveHandlers {
  onEvent?: (event: ActivityEvent) => void;
  /** Connected again after a drop: events may have been missed, refetch what is on screen. */
  onReconnect?: () => void;
  /** The connection dropped (the bridge stopped, or the network between went away). */
  onDrop?: () => void;
}

export class LiveActivity {
  private snapshot: LiveSnapshot = { status: 'idle', retryAt: null, failures: 0, events: [] };
  private readonly listeners = new Set<() => void>();
  private source: EventSource | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private key: string | null = null;
  private handlers: LiveHandlers = {};
  private wasOpen = false;
  private readonly warned = new Set<string>();
  /** Received events, parsed one after the other (the parser may still be loading). */
  private parsing: Promise<void> = Promise.resolve();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): LiveSnapshot => this.snapshot;

  start(key: string, handlers: LiveHandlers): void {
    this.stop();
    this.key = key;
    this.handlers = handlers;
    this.wasOpen = false;
    this.connect();
  }

  stop(): void {
    this.source?.close();
    this.source = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.key = null;
    this.set({ status: 'idle', retryAt: null, failures: 0 });
  }

  /** Skip the wait and try again now (the "reconnect now" button). */
  retryNow(): void {
    if (this.key === null || this.snapshot.status !== 'reconnecting') return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.connect();
  }

  private connect(): void {
    if (this.key === null) return;
    this.set({ status: this.snapshot.failures > 0 ? 'reconnecting' : 'connecting', retryAt: null });
    const source = new EventSource(bridgeUrl('/events', { key: this.key }));
    this.source = source;
    void loadEventParser();
    source.addEventListener('open', () => {
      if (this.source !== source) return;
      if (this.wasOpen || this.snapshot.failures > 0) this.handlers.onReconnect?.();
      this.wasOpen = true;
      this.set({ status: 'open', retryAt: null, failures: 0 });
    });
    source.addEventListener('activity', (message) => {
      if (this.source !== source) return;
      this.receive(message.data);
    });
    source.addEventListener('error', () => {
      if (this.source !== source) return;
      source.close();
      this.source = null;
      const wasOpen = this.snapshot.status === 'open';
      this.scheduleReconnect();
      if (wasOpen) this.handlers.onDrop?.();
    });
  }

  private scheduleReconnect(): void {
    const failures = this.snapshot.failures + 1;
    const delay = reconnectDelay(failures);
    this.set({ status: 'reconnecting', failures, retryAt: Date.now() + delay });
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, delay);
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    this.parsing = this.parsing
      .then(loadEventParser)
      .then((parse) => this.accept(json, parse))
      .catch((error: unknown) => console.warn('/events: the event parser did not load', error));
  }

  private accept(json: unknown, parse: typeof parseActivityEvent): void {
    const parsed = parse(json);
    if (!parsed.ok) {
      if (parsed.reason === 'unknown-type')
        this.warnSkipped(parsed.type, 'a type this dashboard does not know');
      else this.warnSkipped(typeOf(json), parsed.error.issues.map(describeIssue).join('; '));
      return;
    }
    const { event } = parsed;
    if (this.snapshot.events.some((known) => known.id === event.id)) return;
    this.set({ events: [event, ...this.snapshot.events].slice(0, MAX_EVENTS) });
    this.handlers.onEvent?.(event);
  }

  /** Once per event type: a bridge newer than the dashboard would repeat it all day. */
  private warnSkipped(type: string, why: string): void {
    if (this.warned.has(type)) return;
    this.warned.add(type);
    console.warn(`/events: skipped ${type} event: ${why}`);
  }

  private set(change: Partial<LiveSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}

function typeOf(json: unknown): string {
  return typeof json === 'object' && json !== null && 'type' in json && typeof json.type === 'string'
    ? json.type
    : '(untyped)';
}

function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}

export const liveActivity = new LiveActivity();
