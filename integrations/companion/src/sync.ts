import { BridgeError, type BridgeClient, type JsonRecord } from './bridge-client.js';
import { EventStream, type BridgeEvent } from './event-stream.js';
import {
  readBroadcasts,
  readHealth,
  readHolds,
  readPosts,
  readRecorder,
  readTakes,
  type Snapshot,
} from './snapshot.js';

/** The parts of the snapshot, each read from one route. */
export type Source = 'recorder' | 'takes' | 'broadcasts' | 'posts' | 'holds' | 'health';
export const allSources: readonly Source[] = ['recorder', 'takes', 'broadcasts', 'posts', 'holds', 'health'];

const routes: Record<Source, { path: string; apply: (snapshot: Snapshot, body: JsonRecord) => void }> = {
  recorder: { path: '/api/recorder/status', apply: (s, body) => void (s.recorder = readRecorder(body)) },
  takes: { path: '/api/recorder/takes?limit=5', apply: (s, body) => void (s.takes = readTakes(body)) },
  broadcasts: { path: '/api/broadcasts', apply: (s, body) => void (s.broadcasts = readBroadcasts(body)) },
  posts: {
    path: '/api/posts',
    apply: (s, body) => {
      const read = readPosts(body);
      s.posts = read.posts;
      s.postsLeft = read.postsLeft;
    },
  },
  holds: { path: '/api/guests/holds', apply: (s, body) => void (s.holds = readHolds(body)) },
  health: { path: '/health', apply: (s, body) => void (s.health = readHealth(body)) },
};

/** Which parts an activity event (GET /events) may have changed. */
export function sourcesOf(event: Pick<BridgeEvent, 'type' | 'data'>): Source[] {
  const [area] = event.type.split('.');
  switch (area) {
    case 'recorder':
      return event.type === 'recorder.take'
        ? ['recorder', 'takes']
        : event.type === 'recorder.mark'
          ? []
          : ['recorder'];
    case 'broadcast':
      return ['broadcasts'];
    case 'posting':
      return ['posts'];
    case 'guests':
      return event.type === 'guests.hold' ? ['holds'] : [];
    case 'job':
      return event.type === 'job.failed' ? ['posts', 'health'] : [];
    case 'catchup':
    case 'collection':
      return event.type === 'collection.progress' ? [] : ['health'];
    case 'bridge':
    case 'settings':
      return [...allSources];
    default:
      return [];
  }
}

/** No poll of the API more often than this (issue #29.7): events carry the rest. */
export const POLL_INTERVAL_MS = 30_000;

export interface SyncHandlers {
  /** The connection is up (the stream is open and the API answered) or down, in the bridge's words. */
  onStatus(status: 'ok' | 'connecting' | 'failure', message: string | null): void;
  /** Parts of the snapshot were read again. */
  onChange(sources: Source[]): void;
  log(level: 'debug' | 'info' | 'warn', message: string): void;
}

/**
 * Keeps `snapshot` in line with the bridge: everything read when /events (re)opens and every
 * 30 s, and the parts an event touches read again as it arrives. Reads of one part never overlap:
 * an event during a read schedules one more read after it (the latest state wins).
 */
export class BridgeSync {
  private readonly stream: EventStream;
  private readonly inFlight = new Map<Source, Promise<void>>();
  private readonly again = new Set<Source>();
  /** The last read of each part that failed (cleared by a good read). */
  private readonly lastError = new Map<Source, BridgeError>();
  private poll: NodeJS.Timeout | null = null;
  private stopped = false;
  private streamOpen = false;
  /** A read failed on the key or the network while the stream was open: status shows it until a good read. */
  private readFailed = false;

  constructor(
    private readonly client: BridgeClient,
    readonly snapshot: Snapshot,
    private readonly handlers: SyncHandlers,
  ) {
    this.stream = new EventStream(client, {
      onOpen: () => {
        this.streamOpen = true;
        void this.resync();
      },
      onEvent: (event) => {
        const sources = sourcesOf(event);
        if (sources.length > 0) void this.refresh(sources);
      },
      onDown: (error, retryInMs) => {
        this.streamOpen = false;
        this.stopPolling();
        handlers.onStatus('failure', `${error.message}; trying again in ${Math.round(retryInMs / 1000)} s`);
      },
      onReconnecting: (attempt) => handlers.onStatus('connecting', `reconnecting (attempt ${attempt + 1})`),
    });
  }

  start(): void {
    this.handlers.onStatus('connecting', `connecting to ${this.client.baseUrl}`);
    this.stream.start();
  }

  stop(): void {
    this.stopped = true;
    this.stopPolling();
    this.stream.stop();
  }

  /** Reads these parts again now (an action's own change shows without waiting for its event). */
  async refresh(sources: readonly Source[]): Promise<void> {
    const failures = (await Promise.all(sources.map((source) => this.read(source)))).filter(
      (failure): failure is BridgeError => failure !== null,
    );
    const fatal = failures.find((failure) => failure.kind !== 'refused');
    if (fatal) {
      this.readFailed = true;
      this.handlers.onStatus('failure', fatal.message);
    } else if (this.readFailed && this.streamOpen && !this.stopped) {
      this.readFailed = false;
      this.handlers.onStatus('ok', null);
    }
  }

  private async resync(): Promise<void> {
    this.readFailed = false;
    await this.refresh(allSources);
    if (this.stopped || !this.streamOpen) return;
    // A read that failed on the key or the network was reported by refresh(); the poll tries again.
    if (!this.readFailed) this.handlers.onStatus('ok', null);
    this.stopPolling();
    this.poll = setInterval(() => void this.refresh(allSources), POLL_INTERVAL_MS);
  }

  /** Reads one part (coalesced); null, or the failure (a refusal leaves the part unknown). */
  private async read(source: Source): Promise<BridgeError | null> {
    const running = this.inFlight.get(source);
    if (running) {
      this.again.add(source);
      await running;
      return this.lastError.get(source) ?? null;
    }
    const reading = (async () => {
      do {
        this.again.delete(source);
        try {
          const body = await this.client.get(routes[source].path);
          if (this.stopped) return;
          routes[source].apply(this.snapshot, body);
          this.lastError.delete(source);
          this.handlers.onChange([source]);
        } catch (error) {
          const failure =
            error instanceof BridgeError ? error : new BridgeError(String(error), 'refused', null);
          this.lastError.set(source, failure);
          // A part the bridge cannot serve (its peer not configured) stays unknown; the rest works.
          if (failure.kind === 'refused')
            this.handlers.log('debug', `${routes[source].path}: ${failure.message}`);
        }
      } while (this.again.has(source) && !this.stopped);
    })();
    this.inFlight.set(source, reading);
    try {
      await reading;
    } finally {
      this.inFlight.delete(source);
    }
    return this.lastError.get(source) ?? null;
  }

  private stopPolling(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
  }
}
