/**
 * The bridge's public API as the module uses it: the key in `Authorization: Bearer`, JSON in and
 * out, and every failure turned into the words the operator sees on the connection's status.
 */

/** Why a call failed: `unauthorized` (the key), `unreachable` (no answer), `refused` (the bridge said no). */
export type BridgeFailureKind = 'unauthorized' | 'unreachable' | 'refused';

export class BridgeError extends Error {
  constructor(
    message: string,
    readonly kind: BridgeFailureKind,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

export type JsonRecord = Record<string, unknown>;

export const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const REQUEST_TIMEOUT_MS = 10_000;

export class BridgeClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  get headers(): Record<string, string> {
    return { authorization: `Bearer ${this.apiKey}` };
  }

  get(path: string, signal?: AbortSignal): Promise<JsonRecord> {
    return this.call('GET', path, undefined, signal);
  }

  post(path: string, body?: JsonRecord, signal?: AbortSignal): Promise<JsonRecord> {
    return this.call('POST', path, body, signal);
  }

  private async call(
    method: string,
    path: string,
    body: JsonRecord | undefined,
    signal: AbortSignal | undefined,
  ): Promise<JsonRecord> {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(this.baseUrl + path, {
        method,
        headers: body === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      throw unreachable(this.baseUrl, error);
    }
    const text = await response.text().catch(() => '');
    const parsed = parseJson(text);
    if (!response.ok) throw refusal(response.status, parsed, text);
    if (parsed === null)
      throw new BridgeError(`${method} ${path}: the bridge answered no JSON`, 'refused', 200);
    return parsed;
  }
}

/** The bridge's own words for a refusal (`{error}`), with its status; 401 is the key. */
export function refusal(status: number, body: JsonRecord | null, text = ''): BridgeError {
  const words = typeof body?.error === 'string' ? body.error : text.trim().slice(0, 200) || `HTTP ${status}`;
  if (status === 401) return new BridgeError(`the bridge refused the API key: ${words}`, 'unauthorized', 401);
  return new BridgeError(words, 'refused', status);
}

/** "cannot reach the bridge at <url>: ECONNREFUSED" (the cause's code, else its message). */
export function unreachable(baseUrl: string, error: unknown): BridgeError {
  return new BridgeError(`cannot reach the bridge at ${baseUrl}: ${causeOf(error)}`, 'unreachable', null);
}

function causeOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer within 10 s';
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  if (cause instanceof Error) {
    const code = 'code' in cause ? cause.code : undefined;
    return typeof code === 'string' ? code : cause.message;
  }
  return String(cause);
}

export function parseJson(text: string): JsonRecord | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}
