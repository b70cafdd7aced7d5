import {
  BridgeError,
  isRecord,
  parseJson,
  refusal,
  unreachable,
  type BridgeClient,
  type JsonRecord,
} from './bridge-client.js';

/** One activity event from GET /events: `{id, at, type, level, message, data}`. */
export interface BridgeEvent {
  id: number;
  type: string;
  message: string;
  data: JsonRecord | null;
}

export interface EventStreamHandlers {
  /** The stream is open (first time or again): the caller resyncs from the API. */
  onOpen(): void;
  onEvent(event: BridgeEvent): void;
  /** The stream failed or closed; it is opened again after `retryInMs`. */
  onDown(error: BridgeError, retryInMs: number): void;
  /** A new attempt starts now. */
  onReconnecting(attempt: number): void;
}

/** First wait after a drop; doubled on each failure in a row, up to the cap. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** The bridge writes `: ping` every 15 s: a stream silent for longer is dead (a half-open socket). */
const SILENCE_LIMIT_MS = 45_000;

/**
 * GET /events (Server-Sent Events) kept open: reconnected with backoff (1 s doubling to 30 s)
 * whenever it fails or ends, each reconnection announced so the caller resyncs (the bridge
 * replays nothing). A wrong key waits the longest: it does not heal until the config changes.
 */
export class EventStream {
  private abort: AbortController | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly client: BridgeClient,
    private readonly handlers: EventStreamHandlers,
  ) {}

  start(): void {
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.abort?.abort();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    if (this.failures > 0) this.handlers.onReconnecting(this.failures);
    const abort = new AbortController();
    this.abort = abort;
    let silence: NodeJS.Timeout | null = null;
    const heard = () => {
      if (silence) clearTimeout(silence);
      silence = setTimeout(() => abort.abort(new Error('no data for 45 s')), SILENCE_LIMIT_MS);
    };
    let error: BridgeError;
    try {
      const response = await fetch(`${this.client.baseUrl}/events`, {
        headers: { ...this.client.headers, accept: 'text/event-stream' },
        signal: abort.signal,
      });
      if (!response.ok || !response.body) {
        const text = await response.text().catch(() => '');
        throw refusal(response.status, parseJson(text), text);
      }
      heard();
      this.failures = 0;
      this.handlers.onOpen();
      await this.read(response.body, heard);
      error = new BridgeError('the bridge closed the event stream', 'unreachable', null);
    } catch (caught) {
      if (this.stopped) return;
      error =
        caught instanceof BridgeError
          ? caught
          : unreachable(this.client.baseUrl, abort.signal.reason ?? caught);
    } finally {
      if (silence) clearTimeout(silence);
    }
    if (this.stopped) return;
    this.failures++;
    const retryInMs =
      error.kind === 'unauthorized'
        ? MAX_RETRY_MS
        : Math.min(FIRST_RETRY_MS * 2 ** (this.failures - 1), MAX_RETRY_MS);
    this.handlers.onDown(error, retryInMs);
    this.timer = setTimeout(() => void this.connect(), retryInMs);
  }

  private async read(body: ReadableStream<Uint8Array>, heard: () => void): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      heard();
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const event = parseFrame(frame);
        if (event) this.handlers.onEvent(event);
      }
    }
  }
}

/** One SSE frame → an activity event; comments, `retry:` and other frames → null. */
export function parseFrame(frame: string): BridgeEvent | null {
  let name = 'message';
  const data: string[] = [];
  for (const line of frame.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  if (name !== 'activity' || data.length === 0) return null;
  const parsed = parseJson(data.join('\n'));
  if (!parsed || typeof parsed.type !== 'string' || typeof parsed.id !== 'number') return null;
  const payload = parsed.data;
  return {
    id: parsed.id,
    type: parsed.type,
    message: typeof parsed.message === 'string' ? parsed.message : '',
    data: isRecord(payload) ? payload : null,
  };
}
