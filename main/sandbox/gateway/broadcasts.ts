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
  /** When the encoder connected and the host went live; null: never yet. */
  liveAt: Date | null;
  /** When End made it complete. */
  endedAt: Date | null;
  revokedAt: Date | null;
}

/** Seeding a broadcast further along its life (demo data): when it went live and ended. */
export interface BroadcastHistory {
  createdAt?: Date;
  liveAt?: Date;
  endedAt?: Date;
}

/** Viewers climb towards the broadcast's peak over this long after it goes live. */
const RAMP_MS = 120_000;
const HEALTH = ['excellent', 'good', 'good', 'good', 'fair', 'poor'] as const;
// Two broadcasts on one channel must start at least this far apart.
const CONFLICT_WINDOW_MS = 30 * 60_000;

/**
 * The host's broadcasts. Like a real host, nothing goes live by itself (DESIGN §8): a broadcast
 * stays `created` until its encoder connects (`startEncoder`, the sandbox's simulated encoder),
 * is `live` until End (`end`) makes it `complete`, and DELETE revokes it at any point.
 */
export class BroadcastBook {
  /** The host's persistent world (common/world.ts). */
  readonly world = { broadcasts: new Map<string, Broadcast>() };

  constructor(
    private readonly options: {
      now: () => Date;
      prng: Prng;
      channels: readonly string[];
      /** Base of the embed and dashboard pages (the gateway's own URL). */
      pageBase: () => string;
    },
  ) {}

  create(input: BroadcastInput, history: BroadcastHistory = {}): BroadcastView {
    const createdAt = history.createdAt ?? this.options.now();
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
    for (const other of this.world.broadcasts.values()) {
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
      liveAt: history.liveAt ?? null,
      endedAt: history.endedAt ?? null,
      revokedAt: null,
    };
    this.world.broadcasts.set(broadcast.id, broadcast);
    return this.#view(broadcast);
  }

  /** Revoking twice is fine (a retried DELETE must not fail). */
  revoke(id: string): void {
    const broadcast = this.#get(id);
    broadcast.revokedAt ??= this.options.now();
  }

  /** The simulated encoder connects: the host takes the broadcast live. */
  startEncoder(id: string): BroadcastView {
    const broadcast = this.#get(id);
    const status = this.#status(broadcast);
    if (status === 'complete' || status === 'revoked') {
      throw new GatewayError(409, 'CONFLICT', `broadcast ${id} is ${status}: it cannot go live again`);
    }
    broadcast.liveAt ??= this.options.now();
    return this.#view(broadcast);
  }

  /** POST …/end: a live broadcast becomes complete and stays (ending twice is fine). */
  end(id: string): BroadcastView {
    const broadcast = this.#get(id);
    const status = this.#status(broadcast);
    if (status === 'created') {
      throw new GatewayError(409, 'CONFLICT', `broadcast ${id} is not live: there is nothing to end`);
    }
    if (status === 'revoked') throw new GatewayError(409, 'CONFLICT', `broadcast ${id} was deleted`);
    broadcast.endedAt ??= this.options.now();
    return this.#view(broadcast);
  }

  view(id: string): BroadcastView {
    return this.#view(this.#get(id));
  }

  all(): BroadcastView[] {
    return [...this.world.broadcasts.values()].map((b) => this.#view(b));
  }

  #get(id: string): Broadcast {
    const broadcast = this.world.broadcasts.get(id);
    if (!broadcast) throw new GatewayError(404, 'NOT_FOUND', `broadcast ${id} not found`);
    return broadcast;
  }

  #status(broadcast: Broadcast): BroadcastStatus {
    if (broadcast.revokedAt) return 'revoked';
    if (broadcast.endedAt) return 'complete';
    return broadcast.liveAt ? 'live' : 'created';
  }

  #view(broadcast: Broadcast): BroadcastView {
    const status = this.#status(broadcast);
    const live = status === 'live';
    const base = this.options.pageBase();
    return {
      id: broadcast.id,
      name: broadcast.name,
      description: broadcast.description,
      status,
      viewerCount: live ? this.#viewers(broadcast, broadcast.liveAt!) : 0,
      startedAt: broadcast.liveAt?.toISOString() ?? null,
      streamHealth: live ? this.#health(broadcast) : 'no_data',
      scheduledAt: broadcast.scheduledAt,
      channelId: broadcast.channelId,
      settings: { ...broadcast.settings },
      embedUrl: `${base}/streamhost/embed/${broadcast.id}`,
      dashboardUrl: `${base}/streamhost/dashboard/${broadcast.id}`,
      createdAt: broadcast.createdAt.toISOString(),
    };
  }

  /** Climbs to the broadcast's peak over the first two minutes live, with some noise every 5 seconds. */
  #viewers(broadcast: Broadcast, liveAt: Date): number {
    const now = this.options.now().getTime();
    const peak = 50 + Math.floor(unitHash(`${broadcast.id}|peak`) * 1950);
    const ramp = Math.min(1, Math.max(0, (now - liveAt.getTime()) / RAMP_MS));
    const bucket = Math.floor(now / 5000);
    const noise = 0.9 + unitHash(`${broadcast.id}|${bucket}|viewers`) * 0.2;
    return Math.max(1, Math.round(peak * (0.2 + 0.8 * ramp) * noise));
  }

  #health(broadcast: Broadcast): string {
    const bucket = Math.floor(this.options.now().getTime() / 10_000);
    return HEALTH[Math.floor(unitHash(`${broadcast.id}|${bucket}|health`) * HEALTH.length)] ?? 'good';
  }
}
