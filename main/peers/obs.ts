import OBSWebSocket, { EventSubscription, OBSWebSocketError } from 'obs-websocket-js';
import { z } from 'zod';
import type { Clock } from '../kernel/clock.js';
import { refusedKeyWords } from './peer-error.js';

/**
 * The recorder's OBS Studio through obs-websocket 5 (DESIGN §5.5), with the `obs-websocket-js`
 * client: one connection per bridge, kept up by itself (OBS closes the socket when it quits:
 * reconnect after 1 s, doubling to 30 s). What OBS says when it refuses (a close reason, a request
 * status comment) is kept in its own words, for the operator.
 */
export interface ObsClientOptions {
  url: string;
  password?: string;
  now: Clock;
  /** First reconnect delay and its ceiling (1 s doubling to 30 s). */
  reconnect?: { firstMs?: number; maxMs?: number };
  /** A request OBS does not answer in this time fails (OBS answers in milliseconds). */
  requestTimeoutMs?: number;
  /** A connection not identified in this time is dropped and tried again (a host that swallows packets). */
  connectTimeoutMs?: number;
  /** The origin the saved password belongs to, when it is not this address's: no connection is made (issue #35.3). */
  keyRefusedFor?: string;
}

export interface ObsConnectionStatus {
  connected: boolean;
  /** When the connection was identified, or when it was lost; null before the first attempt ends. */
  since: string | null;
  /** OBS's words for the last failure (connecting, or the close), null when none yet. */
  lastError: string | null;
  /** When that failure was seen. */
  lastErrorAt: string | null;
  /** OBS refused the password (close 4009), or the saved one belongs to another origin: no retry makes it connect. */
  refused: boolean;
  /** When the next attempt starts while disconnected. */
  nextAttemptAt: string | null;
}

export const recordStateChanged = z.object({
  outputActive: z.boolean(),
  outputState: z.string(),
  outputPath: z.string().nullable().optional(),
});
export type RecordStateChanged = z.infer<typeof recordStateChanged>;

const recordStatus = z.object({
  outputActive: z.boolean(),
  outputPaused: z.boolean(),
  /** Milliseconds recorded, paused time excluded. */
  outputDuration: z.number().nonnegative(),
});
export type ObsRecordStatus = z.infer<typeof recordStatus>;

const profileParameter = z.object({ parameterValue: z.string().nullable() });
const recordDirectory = z.object({ recordDirectory: z.string() });

/** GetVideoSettings as OBS 29 answers it: the frame rate as a fraction, canvas and output sizes. */
const videoSettings = z.object({
  fpsNumerator: z.number().int().positive(),
  fpsDenominator: z.number().int().positive(),
  baseWidth: z.number().int().nonnegative(),
  baseHeight: z.number().int().nonnegative(),
  outputWidth: z.number().int().nonnegative(),
  outputHeight: z.number().int().nonnegative(),
});
export type ObsVideoSettings = z.infer<typeof videoSettings>;

/** A request OBS refused or could not be sent; `message` is OBS's words (or why it was not sent). */
export class ObsError extends Error {
  override name = 'ObsError';
  constructor(
    message: string,
    /** OBS's request status or close code; null when OBS said nothing (not connected, timeout). */
    readonly code: number | null,
  ) {
    super(message);
  }
}

/** obs-websocket's close code for a wrong password (WebSocketCloseCode.AuthenticationFailed). */
const AUTHENTICATION_FAILED = 4009;

/** The delay before reconnect attempt `failures + 1`: 1 s, 2 s, 4 s… at most 30 s. */
export function reconnectDelayMs(failures: number, firstMs = 1_000, maxMs = 30_000): number {
  return Math.min(maxMs, firstMs * 2 ** Math.min(failures, 30));
}

/** OBS's words for a failure: its close reason or request comment with its code. */
export function obsWords(error: unknown): string {
  if (error instanceof ObsError) return error.message;
  if (error instanceof OBSWebSocketError) {
    const reason = error.message.trim();
    if (error.code === -1) return reason || 'could not connect';
    return reason ? `${reason} (code ${error.code})` : `connection closed (code ${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}

type Listener<T extends unknown[]> = (...args: T) => void | Promise<void>;

export class ObsClient {
  private socket: OBSWebSocket | null = null;
  /** Rejects every call in flight when the current connection closes (the library would leave them hanging). */
  private lost: AbortController | null = null;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private state: ObsConnectionStatus = {
    connected: false,
    since: null,
    lastError: null,
    lastErrorAt: null,
    refused: false,
    nextAttemptAt: null,
  };
  private readonly connectedListeners: Listener<[]>[] = [];
  private readonly disconnectedListeners: Listener<[string]>[] = [];
  private readonly recordListeners: Listener<[RecordStateChanged]>[] = [];

  constructor(private readonly options: ObsClientOptions) {}

  get url(): string {
    return this.options.url;
  }

  get connected(): boolean {
    return this.state.connected;
  }

  status(): ObsConnectionStatus {
    return { ...this.state };
  }

  /** After every identified (re)connection; the client waits for the listeners before the next event. */
  onConnected(listener: Listener<[]>): void {
    this.connectedListeners.push(listener);
  }

  onDisconnected(listener: Listener<[string]>): void {
    this.disconnectedListeners.push(listener);
  }

  onRecordState(listener: Listener<[RecordStateChanged]>): void {
    this.recordListeners.push(listener);
  }

  start(): void {
    if (!this.stopped) return;
    const { keyRefusedFor } = this.options;
    if (keyRefusedFor !== undefined) {
      this.state = {
        ...this.state,
        lastError: refusedKeyWords(keyRefusedFor),
        lastErrorAt: this.options.now().toISOString(),
        refused: true,
      };
      return;
    }
    this.stopped = false;
    void this.attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = null;
    this.lost?.abort(new ObsError('the bridge is stopping', null));
    this.state = { ...this.state, connected: false, nextAttemptAt: null };
    await socket?.disconnect().catch(() => undefined);
  }

  async getProfileParameter(category: string, name: string): Promise<string | null> {
    const answer = await this.call('GetProfileParameter', {
      parameterCategory: category,
      parameterName: name,
    });
    return parse(profileParameter, answer, 'GetProfileParameter').parameterValue;
  }

  async setProfileParameter(category: string, name: string, value: string): Promise<void> {
    await this.call('SetProfileParameter', {
      parameterCategory: category,
      parameterName: name,
      parameterValue: value,
    });
  }

  /** Where OBS writes recordings, as a path on OBS's machine. */
  async getRecordDirectory(): Promise<string> {
    return parse(recordDirectory, await this.call('GetRecordDirectory'), 'GetRecordDirectory')
      .recordDirectory;
  }

  async getVideoSettings(): Promise<ObsVideoSettings> {
    return parse(videoSettings, await this.call('GetVideoSettings'), 'GetVideoSettings');
  }

  async getRecordStatus(): Promise<ObsRecordStatus> {
    return parse(recordStatus, await this.call('GetRecordStatus'), 'GetRecordStatus');
  }

  private async call(type: string, data?: Record<string, unknown>): Promise<unknown> {
    const socket = this.socket;
    const lost = this.lost;
    if (!socket || !lost || !this.state.connected) throw new ObsError('not connected to OBS', null);
    const timeoutMs = this.options.requestTimeoutMs ?? 5_000;
    let timer: NodeJS.Timeout | undefined;
    let onLost: (() => void) | undefined;
    try {
      return await Promise.race([
        // The library types requests by name; this client's few are checked by parse() above.
        (socket.call as (type: string, data?: object) => Promise<unknown>)(type, data),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new ObsError(`OBS did not answer ${type} within ${timeoutMs} ms`, null)),
            timeoutMs,
          );
          onLost = () => reject(lost.signal.reason as Error);
          lost.signal.addEventListener('abort', onLost, { once: true });
        }),
      ]);
    } catch (error) {
      if (error instanceof OBSWebSocketError) throw new ObsError(requestWords(type, error), error.code);
      throw error;
    } finally {
      clearTimeout(timer);
      if (onLost) lost.signal.removeEventListener('abort', onLost);
    }
  }

  private async attempt(): Promise<void> {
    this.state = { ...this.state, nextAttemptAt: null };
    const socket = new OBSWebSocket();
    this.socket = socket;
    let identified = false;
    socket.on('ConnectionClosed', (error) => {
      if (!identified || this.socket !== socket) return;
      this.closed(obsWords(error));
    });
    socket.on('RecordStateChanged', (data) => {
      const event = recordStateChanged.safeParse(data);
      if (!event.success || this.socket !== socket) return;
      for (const listener of this.recordListeners) void settle(listener(event.data));
    });
    const timeoutMs = this.options.connectTimeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        socket.connect(this.options.url, this.options.password, {
          rpcVersion: 1,
          eventSubscriptions: EventSubscription.Outputs,
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new ObsError(`OBS did not answer within ${timeoutMs} ms`, null)),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      clearTimeout(timer);
      await socket.disconnect().catch(() => undefined);
      if (this.socket !== socket || this.stopped) return;
      this.socket = null;
      this.state = {
        ...this.state,
        connected: false,
        lastError: obsWords(error),
        lastErrorAt: this.options.now().toISOString(),
        refused: error instanceof OBSWebSocketError && error.code === AUTHENTICATION_FAILED,
      };
      this.schedule();
      return;
    }
    clearTimeout(timer);
    if (this.stopped || this.socket !== socket) {
      await socket.disconnect().catch(() => undefined);
      return;
    }
    identified = true;
    this.failures = 0;
    this.lost = new AbortController();
    this.state = {
      connected: true,
      since: this.options.now().toISOString(),
      lastError: null,
      lastErrorAt: null,
      refused: false,
      nextAttemptAt: null,
    };
    for (const listener of this.connectedListeners) await settle(listener());
  }

  private closed(words: string): void {
    this.socket = null;
    this.lost?.abort(new ObsError(`the connection to OBS closed: ${words}`, null));
    this.lost = null;
    const at = this.options.now().toISOString();
    this.state = {
      connected: false,
      since: at,
      lastError: words,
      lastErrorAt: at,
      refused: false,
      nextAttemptAt: null,
    };
    for (const listener of this.disconnectedListeners) void settle(listener(words));
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    const delay = reconnectDelayMs(
      this.failures++,
      this.options.reconnect?.firstMs,
      this.options.reconnect?.maxMs,
    );
    this.state = {
      ...this.state,
      nextAttemptAt: new Date(this.options.now().getTime() + delay).toISOString(),
    };
    this.timer = setTimeout(() => void this.attempt(), delay);
    this.timer.unref();
  }
}

function requestWords(type: string, error: OBSWebSocketError): string {
  const comment = error.message.trim();
  return comment
    ? `OBS refused ${type}: ${comment} (status ${error.code})`
    : `OBS refused ${type} (status ${error.code})`;
}

function parse<T>(schema: z.ZodType<T>, value: unknown, request: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new ObsError(`OBS answered ${request} with an unexpected shape`, null);
  return result.data;
}

/** A listener's failure must not stop the others nor become an unhandled rejection. */
async function settle(result: void | Promise<void>): Promise<void> {
  try {
    await result;
  } catch {
    // the listener records its own failures where the operator sees them
  }
}
