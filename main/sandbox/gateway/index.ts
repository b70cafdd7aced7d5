import { randomInt, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { startPeer, type ControlKeyOption, type SandboxPeerBase } from '../common/peer.js';
import { ALNUM, createPrng } from '../common/prng.js';
import { TimerSet } from '../common/timers.js';
import type { HasWorld } from '../common/world.js';
import {
  BroadcastBook,
  type BroadcastHistory,
  type BroadcastInput,
  type BroadcastView,
} from './broadcasts.js';
import { GatewayError } from './errors.js';
import { mountBroadcastPages } from './pages.js';
import type { PublishRecord } from './publish.js';
import { gatewayRouter } from './routes.js';

export interface SandboxGatewayOptions extends ControlKeyOption {
  apiKey?: string;
  /** Require `Authorization: Bearer <apiKey>` (default true; the real gateway's key is optional). */
  requireAuth?: boolean;
  /** False: a gateway without `POST /streamhost/broadcasts/{id}/end` (default true). */
  endSupported?: boolean;
  /** Known channel ids; the first is used when none is given (default main, backup). */
  channels?: string[];
  now?: () => Date;
  seed?: number;
}

export interface SandboxGateway extends SandboxPeerBase, HasWorld {
  readonly apiKey: string;
  broadcasts(): BroadcastView[];
  publishes(): PublishRecord[];
  /** Direct creation (seeding): `history` puts it further along its life (live, ended). */
  createBroadcast(input: BroadcastInput, history?: BroadcastHistory): BroadcastView;
  /** The simulated encoder connects: the host takes the broadcast live (nothing else does). */
  startEncoder(broadcastId: string): BroadcastView;
  setEndSupported(on: boolean): void;
  /** While on, streamhost calls answer 401 AUTH_EXPIRED. */
  setSessionExpired(on: boolean): void;
  /** A message: streamhost calls answer 502 STREAMHOST_ERROR with it as details; null heals. */
  setHostFailure(message: string | null): void;
}

const expiredBody = z.strictObject({ on: z.boolean() });
const hostFailureBody = z.strictObject({ message: z.string().min(1).nullable() });
const encoderBody = z.strictObject({ broadcastId: z.string().min(1) });

/** A simulated publishing gateway and live-broadcast host (DESIGN §5.3) on 127.0.0.1. */
export async function startSandboxGateway(options: SandboxGatewayOptions = {}): Promise<SandboxGateway> {
  const now = options.now ?? (() => new Date());
  const prng = createPrng(options.seed ?? randomInt(2 ** 31));
  const apiKey = options.apiKey ?? `gateway-${prng.chars(24, ALNUM)}`;
  const requireAuth = options.requireAuth ?? true;
  const timers = new TimerSet();
  let url = '';
  const broadcasts = new BroadcastBook({
    now,
    prng,
    channels: options.channels ?? ['main', 'backup'],
    pageBase: () => url,
  });
  const publishes: PublishRecord[] = [];
  let sessionExpired = false;
  let hostFailure: string | null = null;
  let endSupported = options.endSupported ?? true;

  const auth: RequestHandler = (req, res, next) => {
    if (!requireAuth) return next();
    const token = /^Bearer\s+(.+)$/i.exec(req.get('Authorization') ?? '')?.[1] ?? '';
    const ok = token.length === apiKey.length && timingSafeEqual(Buffer.from(token), Buffer.from(apiKey));
    if (ok) return next();
    res.status(401).json({ error: 'missing or invalid gateway key', code: 'UNAUTHORIZED' });
  };

  const peer = await startPeer(timers, {
    controlKey: options.controlKey,
    routes: (app) => {
      mountBroadcastPages(app, broadcasts);
      app.use(auth);
      app.use(
        gatewayRouter({
          broadcasts,
          publishes,
          prng,
          now,
          sessionExpired: () => sessionExpired,
          hostFailure: () => hostFailure,
          endSupported: () => endSupported,
        }),
      );
    },
    control: (router) => {
      router.get('/publishes', (_req, res) => {
        res.json({ publishes });
      });
      router.get('/broadcasts', (_req, res) => {
        res.json({ broadcasts: broadcasts.all() });
      });
      router.post('/session-expired', (req, res) => {
        const parsed = expiredBody.safeParse(req.body);
        if (!parsed.success) {
          res.status(400).json({ error: z.prettifyError(parsed.error) });
          return;
        }
        sessionExpired = parsed.data.on;
        res.json({ sessionExpired });
      });
      router.post('/encoder', (req, res) => {
        const parsed = encoderBody.safeParse(req.body);
        if (!parsed.success) {
          res.status(400).json({ error: z.prettifyError(parsed.error) });
          return;
        }
        try {
          res.json(broadcasts.startEncoder(parsed.data.broadcastId));
        } catch (error) {
          if (!(error instanceof GatewayError)) throw error;
          res.status(error.status).json(error.toBody());
        }
      });
      router.post('/host-failure', (req, res) => {
        const parsed = hostFailureBody.safeParse(req.body);
        if (!parsed.success) {
          res.status(400).json({ error: z.prettifyError(parsed.error) });
          return;
        }
        hostFailure = parsed.data.message;
        res.json({ hostFailure });
      });
    },
    state: () => ({
      peer: 'gateway',
      broadcasts: broadcasts.all(),
      publishes: publishes.length,
      sessionExpired,
      hostFailure,
      endSupported,
    }),
  });
  url = peer.url;

  return {
    ...peer,
    // Broadcasts and publishes; the session and host failures are the runtime's.
    world: { broadcasts: broadcasts.world.broadcasts, publishes },
    apiKey,
    broadcasts: () => broadcasts.all(),
    publishes: () => publishes.map((p) => structuredClone(p)),
    createBroadcast: (input, history) => broadcasts.create(input, history),
    startEncoder: (broadcastId) => broadcasts.startEncoder(broadcastId),
    setEndSupported: (on) => {
      endSupported = on;
    },
    setSessionExpired: (on) => {
      sessionExpired = on;
    },
    setHostFailure: (message) => {
      hostFailure = message;
    },
  };
}

export type { BroadcastInput, BroadcastView } from './broadcasts.js';
export type { PublishRecord } from './publish.js';
