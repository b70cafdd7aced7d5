import { startBridge, type RunningBridge, type StartBridgeOptions } from '../../main/app.js';
import { crmWebhookEvents, signEspoWebhook, type CrmWebhookEvent } from '../../main/sandbox/index.js';
import { tempDir } from './temp-dir.js';

export { eventually } from './wait.js';

export const TEST_API_KEY = 'test-key-0123456789abcdef';

export interface TestBridge extends RunningBridge {
  /** fetch against the bridge with the key (pass `key: null` to send none). */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; headers?: Record<string, string>; key?: string | null },
  ): Promise<{ status: number; body: any; headers: Headers }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  dataDir: string;
  /** Stop and remove the data dir. */
  close(): Promise<void>;
}

/**
 * A real bridge in this process on a free port with a fresh data dir. Peers come from `env`
 * (point them at sandbox peers started by the test); nothing is mocked.
 */
export async function startTestBridge(
  env: Record<string, string> = {},
  {
    start = startBridge,
    ...options
  }: Omit<StartBridgeOptions, 'env'> & {
    dataDir?: string;
    /** The bridge's start: the source's by default; the benches pass the built one (test/bench/built.ts). */
    start?: typeof startBridge;
  } = {},
): Promise<TestBridge> {
  const ownDir = options.dataDir === undefined ? tempDir('bridge-test') : null;
  const dataDir = options.dataDir ?? ownDir!.path;
  const bridge = await start({
    logLevel: 'silent',
    logToStdout: false,
    ...options,
    env: {
      BRIDGE_HOST: '127.0.0.1',
      BRIDGE_PORT: '0',
      BRIDGE_DATA_DIR: dataDir,
      BRIDGE_API_KEY: TEST_API_KEY,
      BRIDGE_SANDBOX: '0',
      // The sandbox's simulated OBS writes no take files in tests unless a test asks (DESIGN §8).
      SANDBOX_TAKE_FILES: '0',
      ...env,
    },
  });
  return {
    ...bridge,
    dataDir,
    call: (method, urlPath, callOptions = {}) => callBridge(bridge.url, method, urlPath, callOptions),
    async close() {
      await bridge.stop();
      ownDir?.remove();
    },
  };
}

export async function callBridge(
  baseUrl: string,
  method: string,
  urlPath: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; key?: string | null } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? TEST_API_KEY : options.key;
  if (key !== null) headers.authorization ??= `Bearer ${key}`;
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetchOnceMore(baseUrl + urlPath, method, headers, payload);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as any, headers: response.headers }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * fetch, sent once more on a new connection when the pooled one it reused was closed by the server
 * as idle just then (the bridge keeps one 65 s, Node's 5 s before; a loaded host made the race likely: ECONNRESET or
 * "other side closed" before any answer). The server had not read that request; a browser resends
 * it the same way. Any other failure, or an answer, is the caller's.
 */
async function fetchOnceMore(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Response> {
  try {
    return await fetch(url, { method, headers, body });
  } catch (error) {
    if (!closedAsIdle(error)) throw error;
    return fetch(url, { method, headers: { ...headers, connection: 'close' }, body });
  }
}

function closedAsIdle(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = cause instanceof Error && 'code' in cause ? cause.code : undefined;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

/**
 * The id of a test's webhook for `event`. EspoCRM gives every webhook (one per event) its own id,
 * and the bridge refuses an id on another route than the one it was first seen on (DESIGN §7):
 * a test signing several routes signs each with its own id, as the CRM would.
 */
export const webhookIdFor = (base: string, event: string): string => `${base}-${event}`;

/** The same ids for the sandbox CRM's webhooks, so the CRM's deliveries and a test's own match. */
export const webhookIdsFor = (base: string): Partial<Record<CrmWebhookEvent, string>> =>
  Object.fromEntries(crmWebhookEvents.map((event) => [event, webhookIdFor(base, event)]));

/**
 * POSTs these exact bytes to /webhooks/<event> as EspoCRM sends them: signed with the webhook's id
 * and secret (the `Signature` header), without the bridge's key.
 */
export function callSignedWebhook(
  baseUrl: string,
  event: string,
  rawBody: string,
  signer: { webhookId: string; secret: string },
) {
  const signature = signEspoWebhook(rawBody, signer.webhookId, signer.secret);
  return callBridge(baseUrl, 'POST', `/webhooks/${event}`, {
    key: null,
    rawBody,
    headers: { [signature.header]: signature.value },
  });
}
