import { z } from 'zod';
import { errorCodes, errorEnvelope, type PeerFailure } from '../../../../shared/api/contract.js';
import type { ErrorCode, RouteContract } from '../../../../shared/api/contract.js';
import { bridgeReach } from '../outage/bridge-reach.js';
import type { ClientErrorCode } from './client-error-code.js';
import { bridgeBaseUrl, bridgeLabel } from './desktop.js';
import { keyStore } from '../auth/key-store.js';
import { isOutageFailure } from '../outage/outage.js';
import { takePreloaded } from './preloaded.js';
import { peerFailureSentence, problemsInWords } from '../words.js';

/** Any failed call: a bridge error envelope, an unreachable bridge or a response that breaks its contract. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when the bridge could not be reached. */
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode | undefined;
  readonly details: unknown;
  /** The answer was the bridge's own error envelope (not a proxy's page, not no answer at all). */
  readonly answeredByBridge: boolean;
  /** When the failure came back (this browser's clock): a /health reading after it is news of the peer (use-peer-back.ts). */
  readonly failedAt = Date.now();

  constructor(
    message: string,
    status: number,
    code: ErrorCode | ClientErrorCode | undefined,
    details?: unknown,
    answeredByBridge = false,
    /** Which peer failed and why, when a peer is the reason (the envelope's `peer`). */
    readonly peer?: PeerFailure,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.answeredByBridge = answeredByBridge;
  }

  get isUnauthorized(): boolean {
    return this.status === 401;
  }

  /** Worth retrying automatically: the bridge is unreachable, busy or failing, not refusing the input. */
  get isTransient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }

  /** The bridge could not be reached (outage.ts): the error clears by itself once it answers again. */
  get isOutage(): boolean {
    return isOutageFailure(this);
  }
}

export interface CallOptions<Query, Body> {
  /** Values for `:name` segments of the contract's path. */
  params?: Record<string, string | number>;
  query?: Query;
  body?: Body;
  signal?: AbortSignal;
  /** Use this key instead of the stored one (the key screen tries a key before keeping it). */
  key?: string;
}

/**
 * Calls one route of the bridge, typed by its shared contract: the body and query are the
 * contract's inputs and the result is its response schema's output, parsed (not trusted).
 * Throws ApiError; a 401 for the stored key sends the dashboard back to the key screen.
 */
export async function callApi<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
>(
  contract: RouteContract<P, Q, B, R>,
  options: CallOptions<z.input<Q>, z.input<B>> = {},
): Promise<z.output<R>> {
  const route = `${contract.method.toUpperCase()} ${contract.path}`;
  const key = options.key ?? keyStore.get().key;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  const init: RequestInit = { method: contract.method.toUpperCase(), headers };
  if (options.signal) init.signal = options.signal;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }

  const url = buildUrl(contract.path, options.params, options.query);
  const ask = () => fetch(url, init);
  let response: Response;
  try {
    // A GET the page asked before this bundle ran (preloaded.ts) is not asked twice.
    const preloaded =
      init.method === 'GET' && options.key === undefined ? takePreloaded(url, key, ask) : undefined;
    response = await (preloaded ?? ask());
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw unreachable(error);
  }

  const payload = await readJson(response).catch((error: unknown) => {
    noteAnswer(response.status, false);
    throw error;
  });
  if (!response.ok || isFailureEnvelope(payload)) {
    const failure = errorEnvelope.safeParse(payload);
    const message = failure.success
      ? failure.data.error
      : `${route} answered HTTP ${response.status} ${response.statusText}`.trim();
    const code = failure.success ? knownCode(failure.data.code) : undefined;
    noteAnswer(response.status, failure.success);
    if (response.status === 401 && key && options.key === undefined) keyStore.reject(key);
    throw new ApiError(
      message,
      response.status,
      code,
      failure.success ? failure.data.details : undefined,
      failure.success,
      failure.success ? failure.data.peer : undefined,
    );
  }
  bridgeReach.answered();

  const parsed = contract.response.safeParse(payload);
  if (!parsed.success) {
    console.warn(`Unexpected answer from ${route}`, parsed.error.issues);
    throw new ApiError(
      `Unexpected answer from ${route}: ${z.prettifyError(parsed.error)}`,
      response.status,
      'BAD_RESPONSE',
      parsed.error.issues,
    );
  }
  return parsed.data;
}

/**
 * Fetches a route that answers a file (an export: SRT, WebVTT, EDL) with the stored key: its bytes
 * and the name the bridge gave it (Content-Disposition). Throws ApiError with the bridge's words.
 */
export async function fetchFile<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
>(
  contract: RouteContract<P, Q, B, R>,
  options: Pick<CallOptions<z.input<Q>, never>, 'params' | 'query' | 'signal'> = {},
): Promise<{ blob: Blob; fileName: string }> {
  const key = keyStore.get().key;
  const headers: Record<string, string> = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  let response: Response;
  try {
    response = await fetch(buildUrl(contract.path, options.params, options.query), {
      headers,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    throw unreachable(error);
  }
  if (!response.ok) {
    const failure = errorEnvelope.safeParse(await readJson(response).catch(() => undefined));
    noteAnswer(response.status, failure.success);
    if (response.status === 401 && key) keyStore.reject(key);
    throw new ApiError(
      failure.success ? failure.data.error : `The bridge answered HTTP ${response.status}`,
      response.status,
      failure.success ? knownCode(failure.data.code) : undefined,
      undefined,
      failure.success,
    );
  }
  bridgeReach.answered();
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'export.txt';
  return { blob: await response.blob(), fileName };
}

/** No answer came (refused, reset, offline): the bridge is unreachable. */
function unreachable(error: unknown): ApiError {
  bridgeReach.unreachable();
  const reason = error instanceof Error ? error.message : String(error);
  return new ApiError(`Cannot reach the bridge at ${bridgeLabel()} (${reason})`, 0, 'NETWORK_ERROR');
}

/** An answer came: the bridge's own, or a proxy's 502–504 standing in for a bridge that is down. */
function noteAnswer(status: number, answeredByBridge: boolean): void {
  if (isOutageFailure({ status, answeredByBridge })) bridgeReach.unreachable();
  else bridgeReach.answered();
}

/** Absolute URL of a bridge path, e.g. for EventSource: `bridgeUrl('/events', {key})`. */
export function bridgeUrl(path: string, query?: Record<string, unknown>): string {
  return buildUrl(path, undefined, query);
}

function buildUrl(path: string, params: Record<string, string | number> | undefined, query: unknown): string {
  const filled = path.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  if (query && typeof query === 'object') {
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') search.append(name, String(value));
    }
  }
  const qs = search.toString();
  return `${bridgeBaseUrl}${filled}${qs ? `?${qs}` : ''}`;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (response.ok)
      throw new ApiError(
        'The bridge answered with something other than JSON',
        response.status,
        'BAD_RESPONSE',
      );
    return undefined;
  }
}

const knownCodes: ReadonlySet<string> = new Set(errorCodes);
function isErrorCode(code: string): code is ErrorCode {
  return knownCodes.has(code);
}
function knownCode(code: string | undefined): ErrorCode | undefined {
  return code !== undefined && isErrorCode(code) ? code : undefined;
}

function isFailureEnvelope(payload: unknown): boolean {
  return typeof payload === 'object' && payload !== null && 'success' in payload && payload.success === false;
}

/** A message fit for the operator, whatever was thrown: validation details become sentences. */
export function errorMessage(error: unknown): string {
  // A peer's failure in words (issue #40.4): the bridge's own message names the call and path
  // ("crm GET /GuestBooking: HTTP 500"), which goes behind Details (bridgeMessage).
  const peer = error instanceof ApiError && error.peer ? peerFailureSentence(error.peer) : null;
  return peer ?? bridgeMessage(error);
}

/** The bridge's own message, as it said it: for Details, not for the operator's first read. */
export function bridgeMessage(error: unknown): string {
  // A contract break carries zod's own text ("Invalid input: expected number, received NaN"):
  // that is for the console, not for the operator.
  if (error instanceof ApiError && error.code === 'BAD_RESPONSE')
    return 'The bridge’s answer was not what this dashboard expected.';
  if (error instanceof ApiError) return problemsInWords(error.details) ?? error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
