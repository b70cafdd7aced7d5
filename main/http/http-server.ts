import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorEnvelope } from '../../shared/api/contract.js';
import { FirstByteClock } from './first-byte.js';

/** What clients may hold of the bridge (issue #12.3, #12.4, #25.4, #25.5, #35.4). Tests shorten or lower them. */
export interface HttpLimits {
  /** The request line and headers must arrive within this (checked every timeoutCheckIntervalMs). */
  headersTimeoutMs: number;
  /**
   * The whole request, body included, must arrive within this: a call that carries the key. A body
   * not yet verified has the tighter rules below. A response may take longer (SSE).
   */
  requestTimeoutMs: number;
  /** How often Node looks for connections past those two (its default, 30 s, would double them). */
  timeoutCheckIntervalMs: number;
  /**
   * How long an answered connection waits for the client's next request (said in `Keep-Alive:
   * timeout=`). Longer than clients hold an idle connection, so they close first: with Node's 5 s a
   * client reusing one just as the bridge closed it met a reset before any answer. Idle ones are
   * still closed first when the sockets reach maxConnections.
   */
  keepAliveTimeoutMs: number;
  /**
   * Open sockets in all, idle ones included (one that has sent no request, or whose answer is
   * sent): past it idle ones are closed, oldest first, else the new one is answered 503. There is
   * no cap on sockets per address: who a request is from and what it carries are known only once
   * its headers are in, and the caps below count only what needs counting.
   */
  maxConnections: number;
  /**
   * Requests whose body is read before it is verified (a webhook's Signature is a MAC of the
   * whole body), per client address (the forwarded one behind BRIDGE_TRUST_PROXY) and in all,
   * and the bytes they hold in all; past them 503 with Retry-After. Calls with the key, /health
   * and everything else answered from its headers alone never count.
   */
  maxUnverifiedPerClient: number;
  maxUnverified: number;
  maxUnverifiedBytes: number;
  /** Such a body must keep this rate after unverifiedBodyGraceMs, and be complete within unverifiedBodyDeadlineMs of the request's first byte. */
  unverifiedBodyMinBytesPerSecond: number;
  unverifiedBodyGraceMs: number;
  unverifiedBodyDeadlineMs: number;
  /** Unsent bytes an /events client may fall behind by before it is closed (it reconnects). */
  sseClientBufferBytes: number;
  /** /events readers per client address, and in all (DESIGN §4, issue #25.4); past them 429. */
  maxEventReadersPerClient: number;
  maxEventReaders: number;
}

export const defaultHttpLimits: HttpLimits = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 30_000,
  timeoutCheckIntervalMs: 1_000,
  keepAliveTimeoutMs: 65_000,
  maxConnections: 1024,
  maxUnverifiedPerClient: 8,
  maxUnverified: 128,
  // What 128 bodies of the old 1 MB limit could hold: the 16 MB webhook limit does not multiply it.
  maxUnverifiedBytes: 128 * 1024 * 1024,
  unverifiedBodyMinBytesPerSecond: 32 * 1024,
  unverifiedBodyGraceMs: 1_000,
  // EspoCRM gives up after 10 s; its deliveries are answered within 8 s of their first byte.
  unverifiedBodyDeadlineMs: 8_000,
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
export const OVER_CAP_RETRY_AFTER_S = 5;

/**
 * The bridge's HTTP server: the app behind the timeouts and the cap on sockets in all (idle ones
 * closed to make room), with each request's first byte noted (first-byte.ts). The caps per client
 * are the app's, once a request's headers say what it is (body.ts).
 */
export function createHttpServer(app: RequestListener, limits: HttpLimits): Server {
  const overCap = new WeakSet<Socket>();
  /** Requests in flight on each socket: 0 is an idle socket (keep-alive, or none sent yet). */
  const inFlight = new WeakMap<Socket, number>();
  const idleSince = new WeakMap<Socket, number>();
  const firstBytes = new FirstByteClock();
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    },
    (req, res) => {
      if (overCap.has(req.socket)) return refuse(res, 'the bridge has too many connections open');
      const socket = req.socket;
      firstBytes.began(req);
      inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
      res.once('close', () => {
        inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1);
        idleSince.set(socket, performance.now());
        firstBytes.answered(socket);
      });
      app(req, res);
    },
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  const all = new Set<Socket>();
  const isIdle = (socket: Socket) =>
    (inFlight.get(socket) ?? 0) === 0 && performance.now() - (idleSince.get(socket) ?? 0) >= IDLE_GRACE_MS;
  server.on('connection', (socket: Socket) => {
    all.add(socket);
    idleSince.set(socket, performance.now());
    firstBytes.accepted(socket);
    socket.once('close', () => all.delete(socket));
    // Idle sockets other than this one, oldest first, until there is room.
    for (const other of all) {
      if (all.size <= limits.maxConnections) break;
      if (other !== socket && isIdle(other)) {
        all.delete(other);
        other.destroy();
      }
    }
    if (all.size > limits.maxConnections) overCap.add(socket);
  });
  server.once('close', () => firstBytes.stopSweeping());
  return server;
}

/** 503 without routing, parsing or logging; the connection is closed after it. */
function refuse(res: ServerResponse, why: string): void {
  const body: ErrorEnvelope = {
    success: false,
    error: `${why}: try again later`,
    code: 'TOO_MANY_CONNECTIONS',
  };
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Retry-After': String(OVER_CAP_RETRY_AFTER_S),
    Connection: 'close',
  });
  res.end(JSON.stringify(body));
}
