import { signEspoBody } from '../../main/http/espo-signature.js';
import { openRaw, requestHead, type RawConnection } from './raw-http.js';

/**
 * Issue #35.4: a client that sends a webhook with a well-formed but forged `Signature` as slowly
 * as the bridge lets it, to hold the bridge's places. Bytes are written on one shared timer.
 */
export type TrickleKind =
  /** The whole head at once, then a byte of body a second (the finding). */
  | 'byte-a-second'
  /** The whole head at once, then 40 KiB of body a second: above the bridge's minimum rate, so it is held until the body's deadline. */
  | 'at-pace'
  /** The head itself a byte a second: never complete, until the bridge's headers timeout. */
  | 'slow-head';

export const TRICKLE_DECLARED_BYTES = 1_000_000;
const AT_PACE_BYTES = 40 * 1024;

/** A forged signature: the right shape ("<webhookId>:<64 hex digits>"), the wrong MAC. */
export const forgedSignature = signEspoBody('{"not":"this body"}', 'not-the-secret', 'hook-forged');

export function forgedWebhookHead(path = '/webhooks/guest-created'): string {
  return requestHead('POST', path, {
    'content-type': 'application/json',
    'content-length': TRICKLE_DECLARED_BYTES,
    signature: forgedSignature,
  });
}

interface Trickler {
  connection: RawConnection;
  kind: TrickleKind;
  /** What of the head is still to send (slow-head). */
  head: Buffer;
}

export class TrickleLoad {
  private readonly open = new Set<Trickler>();
  private readonly timer: NodeJS.Timeout;
  private stopped = false;
  /** Connections started so far (the bench counts the rate at which they are opened again). */
  started = 0;

  constructor(private readonly baseUrl: string) {
    this.timer = setInterval(() => this.tick(), 1_000);
  }

  /** One trickling connection from `from` (a loopback alias such as 127.0.0.9). */
  async start(kind: TrickleKind, from?: string): Promise<RawConnection> {
    const connection = await openRaw(this.baseUrl, from ? { localAddress: from } : {});
    this.started++;
    const head = Buffer.from(forgedWebhookHead(), 'latin1');
    const trickler: Trickler = { connection, kind, head: kind === 'slow-head' ? head : Buffer.alloc(0) };
    if (kind === 'byte-a-second') connection.socket.write(Buffer.concat([head, Buffer.from('[')]));
    if (kind === 'at-pace') connection.socket.write(Buffer.concat([head, Buffer.alloc(AT_PACE_BYTES, 0x20)]));
    if (kind === 'slow-head') this.sendHeadByte(trickler);
    this.open.add(trickler);
    void connection.closed().then(() => this.open.delete(trickler));
    return connection;
  }

  /**
   * Keeps `count` connections of `kind` going from `from`, each closed one started again after
   * `pauseMs` (as an attacker holding places would), until stop(). Resolves once each has started.
   */
  async hold(count: number, kind: TrickleKind, from?: string, pauseMs = 200): Promise<void> {
    const keepOne = async (first: () => void): Promise<void> => {
      while (!this.stopped) {
        const connection = await this.start(kind, from).catch(() => null);
        first();
        if (connection) await connection.closed();
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    };
    await Promise.all(
      Array.from({ length: count }, () => new Promise<void>((started) => void keepOne(started))),
    );
  }

  countOpen(kind?: TrickleKind, from?: string): number {
    let open = 0;
    for (const trickler of this.open) {
      const address = trickler.connection.socket.localAddress;
      if ((kind === undefined || trickler.kind === kind) && (from === undefined || address === from)) open++;
    }
    return open;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    for (const trickler of this.open) trickler.connection.socket.destroy();
    this.open.clear();
  }

  private tick(): void {
    for (const trickler of this.open) {
      if (trickler.connection.isClosed()) continue;
      if (trickler.kind === 'byte-a-second') trickler.connection.socket.write(' ');
      if (trickler.kind === 'at-pace') trickler.connection.socket.write(Buffer.alloc(AT_PACE_BYTES, 0x20));
      if (trickler.kind === 'slow-head') this.sendHeadByte(trickler);
    }
  }

  private sendHeadByte(trickler: Trickler): void {
    // The blank line that ends the head is never sent.
    if (trickler.head.length <= 4) return;
    trickler.connection.socket.write(trickler.head.subarray(0, 1));
    trickler.head = trickler.head.subarray(1);
  }
}
