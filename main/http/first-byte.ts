import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How often quiet sockets are looked at: a request's first byte is known to within this. */
const SWEEP_MS = 250;

interface SocketState {
  /** The last moment the socket was known to hold no byte of a request not yet answered. */
  quietAt: number;
  bytesAtQuiet: number;
  inFlight: number;
}

const firstBytes = new WeakMap<IncomingMessage, number>();

/**
 * When each request's first byte arrived, on performance.now()'s clock (issue #35.4): the
 * webhook's answer budget and an unverified body's deadline count from it, so a slow sender's
 * headers and body are inside them. Node's parser reads the socket in C++ and tells JS nothing
 * before the headers are complete (a 'data' listener would move every read to JS), but a socket's
 * bytesRead still grows. So a socket is known quiet when accepted, when an answer ends, and at each
 * sweep that finds its bytesRead unchanged; a request began no earlier than the last of those.
 * Off by at most one sweep, and always early: a budget counted from it is never too long.
 */
export class FirstByteClock {
  private readonly sockets = new Map<Socket, SocketState>();
  private sweeper: NodeJS.Timeout | null = null;

  accepted(socket: Socket): void {
    this.sockets.set(socket, { quietAt: performance.now(), bytesAtQuiet: 0, inFlight: 0 });
    socket.once('close', () => {
      this.sockets.delete(socket);
      if (this.sockets.size === 0) this.stopSweeping();
    });
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  /** A request's headers have arrived: it began at its socket's last quiet moment. */
  began(req: IncomingMessage): void {
    const state = this.sockets.get(req.socket);
    firstBytes.set(req, state && state.inFlight === 0 ? state.quietAt : performance.now());
    if (state) state.inFlight++;
  }

  /** Its answer has ended (sent, or the client went away). */
  answered(socket: Socket): void {
    const state = this.sockets.get(socket);
    if (!state) return;
    state.inFlight = Math.max(0, state.inFlight - 1);
    state.quietAt = performance.now();
    state.bytesAtQuiet = socket.bytesRead;
  }

  stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  private sweep(): void {
    const now = performance.now();
    for (const [socket, state] of this.sockets) {
      if (state.inFlight === 0 && socket.bytesRead === state.bytesAtQuiet) state.quietAt = now;
    }
  }
}

/** When `req`'s first byte arrived (performance.now()); the first time asked for a request the clock never saw. */
export function firstByteAt(req: IncomingMessage): number {
  let at = firstBytes.get(req);
  if (at === undefined) firstBytes.set(req, (at = performance.now()));
  return at;
}

/** The same moment on Date.now()'s clock, for what counts wall time (the webhook's budget). */
export function firstByteEpochMs(req: IncomingMessage): number {
  return Date.now() - (performance.now() - firstByteAt(req));
}
