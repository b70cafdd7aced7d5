import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorEnvelope } from '../../shared/api/contract.js';
import { clientAddress, fromTrustedProxy } from './client-address.js';

/** What one client may hold of the bridge (issue #12.3, #12.4, #25.4, #25.5). Tests shorten or lower them. */
export interface HttpLimits {
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. A response may take longer (SSE). */
  requestTimeoutMs: number;
  /** How often Node looks for connections past those two (its default, 30 s, would double them). */
  timeoutCheckIntervalMs: number;
  /**
   * Open sockets per client address, idle ones included (loopback too: a tunnel arrives there).
   * Past it the address's idle sockets are closed to make room; with none idle, the new one is
   * answered 503. From a trusted proxy (BRIDGE_TRUST_PROXY) the limit is on requests in flight
   * per forwarded client instead, the proxy's sockets being shared by all its clients.
   */
  maxConnectionsPerClient: number;
  /** Open sockets in all, idle included; past it idle ones are closed, oldest first, else 503. */
  maxConnections: number;
  /** Unsent bytes an /events client may fall behind by before it is closed (it reconnects). */
  sseClientBufferBytes: number;
  /** /events readers per client address, and in all (DESIGN §4, issue #25.4); past them 429. */
  maxEventReadersPerClient: number;
  maxEventReaders: number;
}

export const defaultHttpLimits: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  timeoutCheckIntervalMs: 1_000,
  maxConnectionsPerClient: 64,
  maxConnections: 1024,
  sseClientBufferBytes: 1024 * 1024,
  maxEventReadersPerClient: 32,
  maxEventReaders: 256,
};

/**
 * A socket counts as idle (and may be closed to make room) once it has had nothing in flight for
 * this long: a socket just opened, or just answered, is about to send its request, not idle.
 */
const IDLE_GRACE_MS = 1_000;

/** Retry-After on a refused connection: EspoCRM retries a 503 webhook later. */
const OVER_CAP_RETRY_AFTER_S = 5;

/**
 * The bridge's HTTP server: the app behind the timeouts, the socket caps (per address and in
 * all, counting idle sockets) and, for a trusted proxy's clients, the in-flight request cap.
 */
export function createHttpServer(app: RequestListener, limits: HttpLimits, trustProxyHops = 0): Server {
  const overCap = new WeakMap<Socket, string>();
  /** Requests in flight on each socket: 0 is an idle socket (keep-alive, or none sent yet). */
  const inFlight = new WeakMap<Socket, number>();
  const idleSince = new WeakMap<Socket, number>();
  const perClient = new Map<string, number>();
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    },
    (req, res) => {
      const refusal = overCap.get(req.socket);
      if (refusal !== undefined) return refuse(res, refusal, true);
      const socket = req.socket;
      inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
      res.once('close', () => {
        inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1);
        idleSince.set(socket, performance.now());
      });
      if (!fromTrustedProxy(socket.remoteAddress, trustProxyHops)) return app(req, res);
      const client = clientAddress(req, trustProxyHops);
      const open = (perClient.get(client) ?? 0) + 1;
      if (open > limits.maxConnectionsPerClient) {
        // The proxy's socket is shared: refused without closing it.
        return refuse(
          res,
          `more than ${limits.maxConnectionsPerClient} requests in flight from this client`,
          false,
        );
      }
      perClient.set(client, open);
      res.once('close', () => {
        const left = (perClient.get(client) ?? 1) - 1;
        if (left > 0) perClient.set(client, left);
        else perClient.delete(client);
      });
      app(req, res);
    },
  );
  const all = new Set<Socket>();
  const byAddress = new Map<string, Set<Socket>>();
  const isIdle = (socket: Socket) =>
    (inFlight.get(socket) ?? 0) === 0 && performance.now() - (idleSince.get(socket) ?? 0) >= IDLE_GRACE_MS;
  /** Closes idle sockets of `pool` other than `keep`, oldest first, until it holds at most `max`. */
  const closeIdle = (pool: Set<Socket>, max: number, keep: Socket) => {
    for (const socket of pool) {
      if (pool.size <= max) return;
      if (socket !== keep && isIdle(socket)) forget(socket).destroy();
    }
  };
  const forget = (socket: Socket) => {
    all.delete(socket);
    const address = socket.remoteAddress ?? 'unknown';
    const own = byAddress.get(address);
    own?.delete(socket);
    if (own?.size === 0) byAddress.delete(address);
    return socket;
  };
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    all.add(socket);
    idleSince.set(socket, performance.now());
    socket.once('close', () => forget(socket));
    // A trusted proxy's sockets carry many clients: its per-client limit is on requests (above).
    if (!fromTrustedProxy(address, trustProxyHops)) {
      const own = byAddress.get(address) ?? new Set<Socket>();
      byAddress.set(address, own.add(socket));
      closeIdle(own, limits.maxConnectionsPerClient, socket);
      if (own.size > limits.maxConnectionsPerClient) {
        overCap.set(socket, `more than ${limits.maxConnectionsPerClient} connections open from this address`);
        return;
      }
    }
    closeIdle(all, limits.maxConnections, socket);
    if (all.size > limits.maxConnections) overCap.set(socket, 'the bridge has too many connections open');
  });
  return server;
}

/** 503 without routing, parsing or logging; the connection is closed after it unless shared. */
function refuse(res: ServerResponse, why: string, close: boolean): void {
  const body: ErrorEnvelope = {
    success: false,
    error: `${why}: try again later`,
    code: 'TOO_MANY_CONNECTIONS',
  };
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Retry-After': String(OVER_CAP_RETRY_AFTER_S),
    ...(close ? { Connection: 'close' } : {}),
  });
  res.end(JSON.stringify(body));
}
