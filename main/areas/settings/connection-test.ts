import OBSWebSocket, { OBSWebSocketError } from 'obs-websocket-js';
import { z } from 'zod';
import type { ConfigKey, ConnectionTestResult, TestablePeer } from '../../../shared/api/settings.js';
import { parseRetryAfter } from '../../peers/http-client.js';
import { PeerError } from '../../peers/peer-error.js';
import { describePeerFailure } from '../../peers/peer-failure.js';
import type { TestCredentials } from './test-credentials.js';

/** A test waits this long for an answer: the operator is looking at the button. */
export const CONNECTION_TEST_TIMEOUT_MS = 5_000;

type Outcome = Omit<ConnectionTestResult, 'success' | 'peer' | 'url' | 'credentials' | 'savedKeyFor'>;

const answered = (outcome: Outcome['outcome'], fields: Partial<Outcome> = {}): Outcome => ({
  outcome,
  latencyMs: null,
  status: null,
  retryAfterS: null,
  detail: null,
  ...fields,
});

/** What each HTTP peer is asked, how it authenticates, and what answer shows it is that peer. */
interface HttpProbe {
  path: string;
  headers: Record<string, string>;
  /** The body of a 2xx that this peer gives; a 404 body that is still this peer's answer (the gateway). */
  accepts: (status: number, body: unknown) => boolean;
  /** Words about the peer from its answer ("API user studio-bridge"). */
  detail?: (body: unknown) => string | null;
}

const crmUser = z.looseObject({
  user: z.looseObject({ id: z.string().min(1), userName: z.string().optional() }),
});
const providerUser = z.looseObject({ activeSocialAccounts: z.array(z.string()) });
const gatewayError = z.looseObject({ error: z.string() });
const gatewayBroadcast = z.looseObject({ id: z.string(), status: z.string() });
const n8nHealth = z.looseObject({ status: z.literal('ok') });

/** A broadcast id no one has: the gateway's 404 for it proves the key was taken (a wrong one is 401). */
const PROBE_BROADCAST = 'studio-bridge-connection-test';

function httpProbe(peer: Exclude<TestablePeer, 'obs'>, creds: TestCredentials): HttpProbe {
  const bearer = (key: ConfigKey): Record<string, string> => {
    const value = creds.secrets[key];
    return value === undefined ? {} : { Authorization: `Bearer ${value}` };
  };
  switch (peer) {
    case 'crm': {
      const apiKey = creds.secrets.CRM_API_KEY;
      const password = creds.secrets.CRM_PASSWORD;
      const headers: Record<string, string> =
        apiKey !== undefined
          ? { 'X-Api-Key': apiKey }
          : password !== undefined
            ? {
                Authorization: `Basic ${Buffer.from(`${creds.username ?? ''}:${password}`).toString('base64')}`,
              }
            : {};
      return {
        path: '/api/v1/App/user',
        headers,
        accepts: (status, body) => status < 300 && crmUser.safeParse(body).success,
        detail: (body) => {
          const user = crmUser.safeParse(body);
          return user.success && user.data.user.userName ? `API user ${user.data.user.userName}` : null;
        },
      };
    }
    case 'postsvc':
      return {
        path: '/user',
        headers: bearer('POSTSVC_API_KEY'),
        accepts: (status, body) => status < 300 && providerUser.safeParse(body).success,
        detail: (body) => {
          const user = providerUser.safeParse(body);
          if (!user.success) return null;
          const count = user.data.activeSocialAccounts.length;
          return count === 1 ? '1 social account linked' : `${count} social accounts linked`;
        },
      };
    case 'gateway':
      return {
        path: `/streamhost/broadcasts/${PROBE_BROADCAST}`,
        headers: bearer('GATEWAY_API_KEY'),
        accepts: (status, body) =>
          status === 404 ? gatewayError.safeParse(body).success : gatewayBroadcast.safeParse(body).success,
      };
    case 'automation': {
      const header = creds.secrets.AUTOMATION_AUTH_HEADER?.match(/^([^:]+):\s*(.*)$/);
      return {
        path: '/healthz',
        headers: header?.[1] && header[2] ? { [header[1].trim()]: header[2] } : {},
        accepts: (status, body) => status < 300 && n8nHealth.safeParse(body).success,
      };
    }
  }
}

/**
 * One request, one attempt, redirects not followed: a saved key goes to its origin and no
 * further, even when that origin points elsewhere.
 */
async function testHttp(
  peer: Exclude<TestablePeer, 'obs'>,
  url: string,
  creds: TestCredentials,
): Promise<Outcome> {
  const probe = httpProbe(peer, creds);
  const started = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${url}${probe.path}`, {
      headers: { accept: 'application/json', ...probe.headers },
      redirect: 'manual',
      signal: AbortSignal.timeout(CONNECTION_TEST_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    return answered(timedOut ? 'no-answer' : 'unreachable', { detail: networkWords(error) });
  }
  const latencyMs = Math.round(performance.now() - started);
  const status = response.status;
  let body: unknown;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const seen = { latencyMs, status };
  if (status >= 300 && status < 400) {
    const location = response.headers.get('location');
    const to = location && URL.canParse(location, url) ? new URL(location, url).href : null;
    return answered('redirected', { ...seen, detail: to });
  }
  if (probe.accepts(status, body))
    return answered('reachable', { ...seen, detail: probe.detail?.(body) ?? null });
  const reason = response.headers.get('x-status-reason');
  if (status < 300) return answered('unreadable', { ...seen, detail: reason });
  if (status === 404) return answered('not-found', { ...seen, detail: reason });
  const retryAfterS = parseRetryAfter(response.headers.get('retry-after'));
  const failure = describePeerFailure(
    new PeerError(peer, 'http', `HTTP ${status}`, {
      status,
      ...(retryAfterS === undefined ? {} : { retryAfterS }),
    }),
  );
  return answered(failure?.cause ?? 'failing', {
    ...seen,
    retryAfterS: retryAfterS ?? null,
    detail: reason ?? peerMessage(body),
  });
}

/** A short message from a peer's error body (`message`, `error`), when it has one. */
function peerMessage(body: unknown): string | null {
  const parsed = z
    .looseObject({ message: z.string().optional(), error: z.string().optional() })
    .safeParse(body);
  if (!parsed.success) return null;
  const text = parsed.data.message ?? parsed.data.error ?? null;
  return text === null ? null : text.slice(0, 300);
}

function networkWords(error: unknown): string | null {
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (inner as { code?: unknown } | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET') return 'connection reset';
  if (error instanceof DOMException && error.name === 'TimeoutError')
    return `no answer within ${CONNECTION_TEST_TIMEOUT_MS / 1000} s`;
  return inner instanceof Error ? inner.message : null;
}

/** obs-websocket's close code for a wrong (or missing) password. */
const AUTHENTICATION_FAILED = 4009;

/** Connects and identifies as the recorder does (DESIGN §5.5), then hangs up. */
async function testObs(url: string, password: string | undefined): Promise<Outcome> {
  const socket = new OBSWebSocket();
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const hello = await Promise.race([
      socket.connect(url, password, { rpcVersion: 1, eventSubscriptions: 0 }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), CONNECTION_TEST_TIMEOUT_MS);
      }),
    ]);
    return answered('reachable', {
      latencyMs: Math.round(performance.now() - started),
      detail: `obs-websocket ${hello.obsWebSocketVersion}`,
    });
  } catch (error) {
    if (!(error instanceof OBSWebSocketError)) {
      return answered('no-answer', { detail: `no answer within ${CONNECTION_TEST_TIMEOUT_MS / 1000} s` });
    }
    const words = error.message.trim() || null;
    if (error.code === AUTHENTICATION_FAILED) return answered('refused-key', { detail: words });
    if (error.code >= 4000) return answered('refused', { detail: words });
    // A web server, or a websocket that is not obs-websocket (no OBS subprotocol).
    if (/unexpected server response|subprotocol|invalid websocket|opening handshake/i.test(error.message))
      return answered('unreadable', { detail: words });
    return answered('unreachable', {
      detail: /ECONNREFUSED/.test(error.message) ? 'connection refused' : words,
    });
  } finally {
    clearTimeout(timer);
    await socket.disconnect().catch(() => undefined);
  }
}

/** Tries the peer with what `creds` allows; every failure of the peer is an answer, never thrown. */
export async function testPeerConnection(
  peer: TestablePeer,
  creds: TestCredentials,
): Promise<Omit<ConnectionTestResult, 'success'>> {
  const common = { peer, url: creds.url, credentials: creds.credentials, savedKeyFor: creds.savedKeyFor };
  if (creds.url === null) return { ...common, ...answered('not-configured') };
  const outcome =
    peer === 'obs'
      ? await testObs(creds.url, creds.secrets.RECORDER_OBS_PASSWORD)
      : await testHttp(peer, creds.url, creds);
  return { ...common, ...outcome };
}
