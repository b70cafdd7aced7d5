import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorEnvelope } from '../../shared/api/contract.js';

/** What one client may hold of the bridge (issue #12.3, #12.4). Tests shorten or lower them. */
export interface HttpLimits {
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. A response may take longer (SSE). */
  requestTimeoutMs: number;
  /** How often Node looks for connections past those two (its default, 30 s, would double them). */
  timeoutCheckIntervalMs: number;
  /** Open connections per client address; the next ones are answered 503. */
  maxConnectionsPerClient: number;
  /**
   * Loopback is exempt by default: tunnels (cloudflared, ngrok) and the desktop window arrive
   * from it, so one address there is many clients. Tests, whose clients are all on loopback,
   * turn this on to stand in for a remote client.
   */
  capLoopback: boolean;
  /** Unsent bytes an /events client may fall behind by before it is closed (it reconnects). */
  sseClientBufferBytes: number;
}

export const defaultHttpLimits: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  timeoutCheckIntervalMs: 1_000,
  maxConnectionsPerClient: 64,
  capLoopback: false,
  sseClientBufferBytes: 1024 * 1024,
};

/** Retry-After on a refused connection: EspoCRM retries a 503 webhook later. */
const OVER_CAP_RETRY_AFTER_S = 5;

/** The bridge's HTTP server: the app behind the timeouts and the per-address connection cap. */
export function createHttpServer(app: RequestListener, limits: HttpLimits): Server {
  const overCap = new WeakSet<Socket>();
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    },
    (req, res) => (overCap.has(req.socket) ? refuseOverCap(req, res, limits) : app(req, res)),
  );
  const openByAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || (!limits.capLoopback && isLoopback(address))) return;
    const open = (openByAddress.get(address) ?? 0) + 1;
    openByAddress.set(address, open);
    if (open > limits.maxConnectionsPerClient) overCap.add(socket);
    socket.once('close', () => {
      const left = (openByAddress.get(address) ?? 1) - 1;
      if (left > 0) openByAddress.set(address, left);
      else openByAddress.delete(address);
    });
  });
  return server;
}

/** 503 without routing, parsing or logging: the connection is closed after the answer. */
function refuseOverCap(_req: IncomingMessage, res: ServerResponse, limits: HttpLimits): void {
  const body: ErrorEnvelope = {
    success: false,
    error: `more than ${limits.maxConnectionsPerClient} connections open from this address: try again later`,
    code: 'TOO_MANY_CONNECTIONS',
  };
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Retry-After': String(OVER_CAP_RETRY_AFTER_S),
    Connection: 'close',
  });
  res.end(JSON.stringify(body));
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
