import { LOWER_ALNUM, unitHash, type Prng } from '../common/prng.js';
import { GatewayError } from './errors.js';

export interface BroadcastInput {
  name: string;
  description?: string | null;
  /** ISO 8601. */
  scheduledAt: string;
  channelId?: string | null;
  streamSource?: { type?: string; url: string; key?: string } | null;
  settings?: { isPublic?: boolean; chatEnabled?: boolean; dvr?: boolean } | null;
}

export type BroadcastStatus = 'created' | 'ready' | 'testing' | 'live' | 'complete' | 'revoked';

export interface BroadcastView {
  id: string;
  name: string;
  description: string | null;
  status: BroadcastStatus;
  viewerCount: number;
  startedAt: string | null;
  streamHealth: string;
  scheduledAt: string;
  channelId: string;
  settings: { isPublic: boolean; chatEnabled: boolean; dvr: boolean };
  embedUrl: string;
  dashboardUrl: string;
  createdAt: string;
}

interface Broadcast {
  id: string;
  name: string;
  description: string | null;
  scheduledAt: string;
  channelId: string;
  settings: BroadcastView['settings'];
  createdAt: Date;
  revokedAt: Date | null;
}

/**
 * Where a broadcast is in its life, as a fraction of `lifecycleMs` since it was created:
 * created → ready → testing → live → complete. (The sandbox runs the arc from creation,
 * not from scheduledAt, so a demo or a test sees it move.)
 */
const PHASES: Array<[number, BroadcastStatus]> = [
  [0.9, 'complete'],
  [0.25, 'live'],
  [0.2, 'testing'],
  [0.1, 'ready'],
  [0, 'created'],
];
const LIVE_FROM = 0.25;
const LIVE_UNTIL = 0.9;
const HEALTH = ['excellent', 'good', 'good', 'good', 'fair', 'poor'] as const;
// Two broadcasts on one channel must start at least this far apart.
const CONFLICT_WINDOW_MS = 30 * 60_000;

export class BroadcastBook {
  readonly #broadcasts = new Map<string, Broadcast>();

  constructor(
    private readonly options: {
      now: () => Date;
      prng: Prng;
      lifecycleMs: number;
      channels: readonly string[];
      /** Base of the embed and dashboard pages (the gateway's own URL). */
      pageBase: () => string;
    },
  ) {}

  create(input: BroadcastInput, createdAt = this.options.now()): BroadcastView {
    if (input.channelId != null && !this.options.channels.includes(input.channelId)) {
      throw new GatewayError(
        404,
        'CHANNEL_NOT_FOUND',
        `channel "${input.channelId}" not found`,
        `known channels: ${this.options.channels.join(', ')}`,
      );
    }
    if (input.streamSource) {
      const { url, key } = input.streamSource;
      if (!/^rtmps?:\/\/[^/\s]+/.test(url)) {
        throw new GatewayError(
          400,
          'RTMP_INVALID',
          'streamSource.url must be an rtmp:// or rtmps:// URL',
          `got "${url}"`,
        );
      }
      if (key !== undefined && key.trim() === '') {
        throw new GatewayError(400, 'RTMP_INVALID', 'streamSource.key is empty');
      }
    }
    const channelId = input.channelId ?? this.options.channels[0] ?? 'main';
    const start = Date.parse(input.scheduledAt);
    for (const other of this.#broadcasts.values()) {
      if (other.channelId !== channelId || other.revokedAt) continue;
      if (['complete', 'revoked'].includes(this.#status(other))) continue;
      if (Math.abs(Date.parse(other.scheduledAt) - start) < CONFLICT_WINDOW_MS) {
        throw new GatewayError(
          409,
          'CONFLICT',
          `channel "${channelId}" already has a broadcast within 30 minutes of ${input.scheduledAt}`,
          `conflicts with broadcast ${other.id} "${other.name}" at ${other.scheduledAt}`,
        );
      }
    }
    const broadcast: Broadcast = {
      id: this.options.prng.chars(16, LOWER_ALNUM),
      name: input.name,
      description: input.description ?? null,
      scheduledAt: new Date(start).toISOString(),
      channelId,
      settings: {
        isPublic: input.settings?.isPublic ?? true,
        chatEnabled: input.settings?.chatEnabled ?? true,
        dvr: input.settings?.dvr ?? true,
      },
      createdAt,
      revokedAt: null,
    };
    this.#broadcasts.set(broadcast.id, broadcast);
    return this.#view(broadcast);
  }

  /** Revoking twice is fine (a retried DELETE must not fail). */
  revoke(id: string): void {
    const broadcast = this.#get(id);
    broadcast.revokedAt ??= this.options.now();
  }

  view(id: string): BroadcastView {
    return this.#view(this.#get(id));
  }

  all(): BroadcastView[] {
    return [...this.#broadcasts.values()].map((b) => this.#view(b));
  }

  #get(id: string): Broadcast {
    const broadcast = this.#broadcasts.get(id);
    if (!broadcast) throw new GatewayError(404, 'NOT_FOUND', `broadcast ${id} not found`);
    return broadcast;
  }

  #progress(broadcast: Broadcast): number {
    return (this.options.now().getTime() - broadcast.createdAt.getTime()) / this.options.lifecycleMs;
  }

  #status(broadcast: Broadcast): BroadcastStatus {
    if (broadcast.revokedAt) return 'revoked';
    const progress = this.#progress(broadcast);
    return PHASES.find(([from]) => progress >= from)?.[1] ?? 'created';
  }

  #view(broadcast: Broadcast): BroadcastView {
    const status = this.#status(broadcast);
    const progress = this.#progress(broadcast);
    const wentLive =
      progress >= LIVE_FROM && (!broadcast.revokedAt || broadcast.revokedAt > this.#liveAt(broadcast));
    const live = status === 'live';
    const base = this.options.pageBase();
    return {
      id: broadcast.id,
      name: broadcast.name,
      description: broadcast.description,
      status,
      viewerCount: live ? this.#viewers(broadcast, progress) : 0,
      startedAt: wentLive ? this.#liveAt(broadcast).toISOString() : null,
      streamHealth: live ? this.#health(broadcast) : status === 'testing' ? 'good' : 'no_data',
      scheduledAt: broadcast.scheduledAt,
      channelId: broadcast.channelId,
      settings: { ...broadcast.settings },
      embedUrl: `${base}/streamhost/embed/${broadcast.id}`,
      dashboardUrl: `${base}/streamhost/dashboard/${broadcast.id}`,
      createdAt: broadcast.createdAt.toISOString(),
    };
  }

  #liveAt(broadcast: Broadcast): Date {
    return new Date(broadcast.createdAt.getTime() + LIVE_FROM * this.options.lifecycleMs);
  }

  /** Rises and falls over the live phase, with some noise every 5 seconds. */
  #viewers(broadcast: Broadcast, progress: number): number {
    const peak = 50 + Math.floor(unitHash(`${broadcast.id}|peak`) * 1950);
    const within = Math.min(1, Math.max(0, (progress - LIVE_FROM) / (LIVE_UNTIL - LIVE_FROM)));
    const bucket = Math.floor(this.options.now().getTime() / 5000);
    const noise = 0.9 + unitHash(`${broadcast.id}|${bucket}|viewers`) * 0.2;
    return Math.max(1, Math.round(peak * Math.sin(Math.PI * within) ** 0.7 * noise));
  }

  #health(broadcast: Broadcast): string {
    const bucket = Math.floor(this.options.now().getTime() / 10_000);
    return HEALTH[Math.floor(unitHash(`${broadcast.id}|${bucket}|health`) * HEALTH.length)] ?? 'good';
  }
}
