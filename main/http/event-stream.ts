import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { StoredActivityEvent } from '../../shared/api/activity.js';
import type { ActivityLog } from '../kernel/activity/activity-log.js';
import { AppError } from '../kernel/app-error.js';

/** A refused reader is told to come back after this: a place frees when a reader leaves. */
const READERS_RETRY_AFTER_S = 10;

/**
 * GET /events: Server-Sent Events fed by the activity log. Closed on shutdown.
 *
 * Each client may fall behind by at most `maxUnsentBytes` (what Node holds for it once the
 * kernel's socket buffers are full), plus the one frame that crosses it. A client past that is stalled or too slow: it is closed
 * rather than buffered without limit, and reconnects (EventSource does by itself, `retry:`)
 * to resync from the activity list.
 */
export class EventStreamHub {
  private readonly clients = new Set<Response>();
  /** Open readers per client address (DESIGN §4: 32 each, 256 in all; issue #25.4). */
  private readonly perClient = new Map<string, number>();
  /** Frames of events recorded in this turn of the event loop, not yet written (flush). */
  private readonly pending: string[] = [];
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(
    activity: ActivityLog,
    private readonly options: {
      maxUnsentBytes: number;
      maxReadersPerClient: number;
      maxReaders: number;
      /** Who a request is from: the socket's address, or behind a trusted tunnel the forwarded one. */
      clientOf: (req: Request) => string;
      logger: Logger;
    },
  ) {
    this.unsubscribe = activity.subscribe((event) => this.broadcast(event));
    // Proxies and tunnels drop silent connections; a comment line every 15 s keeps them open.
    this.heartbeat = setInterval(() => this.clients.forEach((res) => this.send(res, ': ping\n\n')), 15_000);
    this.heartbeat.unref();
  }

  /** Opens the stream, or refuses it (429, Retry-After) past the readers allowed. */
  attach(req: Request, res: Response): void {
    const client = this.options.clientOf(req);
    const fromClient = this.perClient.get(client) ?? 0;
    const { maxReadersPerClient, maxReaders } = this.options;
    if (fromClient >= maxReadersPerClient || this.clients.size >= maxReaders) {
      const which =
        fromClient >= maxReadersPerClient
          ? `${maxReadersPerClient} /events readers are open from this address`
          : `${maxReaders} /events readers are open`;
      throw AppError.tooMany('RATE_LIMIT', `${which}: close one or try again later`, READERS_RETRY_AFTER_S);
    }
    this.perClient.set(client, fromClient + 1);
    res.once('close', () => {
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    });
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.write('retry: 3000\n: connected\n\n');
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  get size(): number {
    return this.clients.size;
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private broadcast(event: StoredActivityEvent): void {
    if (this.clients.size === 0) return; // nobody to serialise it for
    this.pending.push(`id: ${event.id}\nevent: activity\ndata: ${JSON.stringify(event)}\n\n`);
    if (this.pending.length === 1) setImmediate(this.flush);
  }

  /**
   * The events of one turn of the event loop, written to every reader at once (issue #25.4):
   * one Buffer, encoded once, one write per reader per turn. Written one event at a time, each
   * reader cost every event a string encoding and a write: with 100 readers the API ran at 0.36
   * of its throughput without them.
   */
  private readonly flush = () => {
    const frames = Buffer.from(this.pending.join(''), 'utf8');
    this.pending.length = 0;
    for (const res of this.clients) this.send(res, frames);
  };

  private send(res: Response, frame: string | Buffer): void {
    // Judged on what is already waiting, so one large event never closes a client that reads.
    if (res.writableLength <= this.options.maxUnsentBytes) {
      res.write(frame);
      return;
    }
    this.clients.delete(res);
    this.options.logger.warn(
      { unsentBytes: res.writableLength, limit: this.options.maxUnsentBytes },
      '/events client closed: it stopped reading (it reconnects and resyncs)',
    );
    // A reset, not a FIN: a FIN would wait behind the unsent bytes the client is not reading,
    // and the kernel would keep them until it gave up.
    res.socket?.resetAndDestroy();
  }
}
