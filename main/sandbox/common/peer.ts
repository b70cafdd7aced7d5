import { randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type Express, type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import { FaultController, faultSpec, type FaultControl } from './faults.js';
import { listenOnLoopback } from './peer-server.js';
import type { TimerSet } from './timers.js';

/** What every simulated peer object has (the peer-specific objects extend it). */
export interface SandboxPeerBase {
  /** Base URL, no trailing slash. */
  readonly url: string;
  /** What the `/__sandbox/*` control routes require in `X-Sandbox-Key`. */
  readonly controlKey: string;
  readonly faults: FaultControl;
  /** Closes the server, clears timers, drops keep-alive and hanging sockets. */
  stop(): Promise<void>;
}

/** Every peer's start options take the key its control routes require (default: a random one). */
export interface ControlKeyOption {
  controlKey?: string;
}

export interface PeerSetup extends ControlKeyOption {
  /** Mounted first: runs even for faulted answers (e.g. the provider's rate-limit headers). */
  beforeFaults?: RequestHandler[];
  /** The peer's own routes, after fault injection. */
  routes(app: Express): void;
  /** Extra `/__sandbox/*` routes (behind the control key; JSON bodies already parsed). */
  control?(router: Router): void;
  /** `GET /__sandbox/state`. */
  state(): unknown;
  /** Called by stop() before the server closes. */
  onStop?(): void | Promise<void>;
}

const refuseBody = z.strictObject({
  on: z.boolean().default(true),
  // Over HTTP, a peer that refuses connections cannot be told to accept them again:
  // forMs turns the refusal off by itself.
  forMs: z.number().int().min(1).max(600_000).optional(),
});

/** Builds the express app (control routes, faults, the peer's routes) and listens on 127.0.0.1:0. */
export async function startPeer(
  timers: TimerSet,
  setup: PeerSetup,
): Promise<SandboxPeerBase & { readonly port: number }> {
  const controller = new FaultController(timers);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  let refuse: (on: boolean) => Promise<void> = async () => undefined;
  const controlKey = setup.controlKey ?? randomBytes(24).toString('base64url');
  const control = express.Router();
  // Fault injection and the peers' inboxes are not for anyone who can reach loopback (issue #12.10).
  control.use(requireControlKey(controlKey));
  control.use(express.json({ limit: '1mb' }));
  control.get('/state', (_req, res) => {
    res.json(setup.state());
  });
  control.get('/faults', (_req, res) => {
    res.json({ faults: controller.list() });
  });
  control.post('/faults', (req, res) => {
    const parsed = faultSpec.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: z.prettifyError(parsed.error) });
      return;
    }
    res.json({ id: controller.inject(parsed.data) });
  });
  control.delete('/faults', (_req, res) => {
    controller.clear();
    res.json({ cleared: true });
  });
  control.post('/refuse-connections', (req, res) => {
    const parsed = refuseBody.safeParse(req.body ?? {});
    if (!parsed.success) {
      res.status(400).json({ error: z.prettifyError(parsed.error) });
      return;
    }
    const { on, forMs } = parsed.data;
    res.on('finish', () => {
      void refuse(on).then(() => {
        if (on && forMs) timers.set(() => void refuse(false), forMs);
      });
    });
    res.json({ refusing: on, forMs: forMs ?? null });
  });
  setup.control?.(control);
  app.use('/__sandbox', control);

  for (const handler of setup.beforeFaults ?? []) app.use(handler);
  app.use(controller.middleware());
  setup.routes(app);

  const server = await listenOnLoopback(app);
  refuse = (on) => server.refuseConnections(on);

  return {
    url: server.url,
    port: server.port,
    controlKey,
    faults: {
      injectFault: (spec) => controller.inject(spec),
      clearFaults: () => controller.clear(),
      activeFaults: () => controller.list(),
      refuseConnections: (on) => server.refuseConnections(on),
    },
    async stop() {
      timers.clearAll();
      await setup.onStop?.();
      await server.close();
    },
  };
}

/** 401 unless `X-Sandbox-Key` is the control key (compared in constant time). */
function requireControlKey(controlKey: string): RequestHandler {
  const expected = Buffer.from(controlKey);
  return (req, res, next) => {
    const given = Buffer.from(req.get('x-sandbox-key') ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
    res
      .status(401)
      .json({ error: 'missing or wrong X-Sandbox-Key: the sandbox control routes need its key' });
  };
}
