import type { ConfigKey, ConnectionTestRequest, TestablePeer } from '../../../shared/api/settings.js';
import type { BridgeConfig } from '../../config/config.js';
import {
  originOf,
  peerSecretKeys,
  type SecretOrigins,
  type SecretPeer,
} from '../../config/secret-origins.js';

/** The secrets (by config name) a test sends, and whether they were given, saved, or none. */
export interface TestCredentials {
  url: string | null;
  secrets: Partial<Record<ConfigKey, string>>;
  /** CRM Basic auth user: not a secret, so the saved one goes along wherever the test goes. */
  username: string | null;
  credentials: 'given' | 'saved' | 'none';
  /** The origin a saved secret belongs to, when it was kept back (the address tested is elsewhere). */
  savedKeyFor: string | null;
}

const secretPeerOf: Record<TestablePeer, SecretPeer> = {
  crm: 'crm',
  postsvc: 'postsvc',
  gateway: 'gateway',
  automation: 'automation',
  obs: 'recorder',
};

/** The request's own secrets, by config name. */
function givenSecrets(request: ConnectionTestRequest): Partial<Record<ConfigKey, string>> {
  switch (request.peer) {
    case 'crm':
      return { CRM_API_KEY: request.apiKey, CRM_PASSWORD: request.password };
    case 'postsvc':
      return { POSTSVC_API_KEY: request.apiKey };
    case 'gateway':
      return { GATEWAY_API_KEY: request.apiKey };
    case 'automation':
      return { AUTOMATION_AUTH_HEADER: request.authHeader };
    case 'obs':
      return { RECORDER_OBS_PASSWORD: request.password };
  }
}

/** The peer's address and secrets in force (the sandbox's own when it stands in; none when refused). */
function inForce(
  config: Readonly<BridgeConfig>,
  peer: TestablePeer,
): { url: string | null; secrets: Partial<Record<ConfigKey, string>> } {
  switch (peer) {
    case 'crm':
      return {
        url: config.crm?.url ?? null,
        secrets: { CRM_API_KEY: config.crm?.apiKey, CRM_PASSWORD: config.crm?.password },
      };
    case 'postsvc':
      return {
        url: config.postsvc?.url ?? config.values.POSTSVC_URL ?? null,
        secrets: { POSTSVC_API_KEY: config.postsvc?.apiKey },
      };
    case 'gateway':
      return { url: config.gateway?.url ?? null, secrets: { GATEWAY_API_KEY: config.gateway?.apiKey } };
    case 'automation': {
      const header = config.automation?.authHeader;
      return {
        url: config.automation?.url ?? null,
        secrets: { AUTOMATION_AUTH_HEADER: header ? `${header.name}: ${header.value}` : undefined },
      };
    }
    case 'obs':
      return {
        url: config.recorder?.url ?? null,
        secrets: { RECORDER_OBS_PASSWORD: config.recorder?.password },
      };
  }
}

const defined = (
  values: Partial<Record<ConfigKey, string | undefined>>,
): Partial<Record<ConfigKey, string>> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value !== ''));

/**
 * What a test of `request` may send (issue #35.3, #41.1). Secrets given in the request go with it,
 * alone. Otherwise a saved secret goes only to the origin it belongs to: the one in force to the
 * address in force, one saved in the config file (waiting for a restart) to the origin it was
 * saved for. Anywhere else the test goes without, and says whose key was kept back.
 */
export function testCredentials(
  request: ConnectionTestRequest,
  config: Readonly<BridgeConfig>,
  file: { values: Partial<Record<ConfigKey, string>>; secretOrigins: SecretOrigins } | null,
): TestCredentials {
  const running = inForce(config, request.peer);
  const url = (request.url ?? running.url)?.replace(/\/+$/, '') ?? null;
  const username =
    request.peer === 'crm'
      ? (request.username ?? config.crm?.username ?? config.values.CRM_USERNAME ?? null)
      : null;
  const given = defined(givenSecrets(request));
  if (Object.keys(given).length > 0) {
    return { url, secrets: given, username, credentials: 'given', savedKeyFor: null };
  }
  const origin = originOf(url ?? undefined);
  const runningOrigin = originOf(running.url ?? undefined);
  const secretKeys: readonly ConfigKey[] = peerSecretKeys[secretPeerOf[request.peer]].secrets;
  const secrets: Partial<Record<ConfigKey, string>> = {};
  let keptFor: string | null = null;
  for (const key of secretKeys) {
    const current = running.secrets[key];
    const saved = file?.values[key];
    const savedFor = file?.secretOrigins[key as keyof SecretOrigins];
    if (current !== undefined && current !== '' && runningOrigin !== null) {
      if (runningOrigin === origin) {
        secrets[key] = current;
        continue;
      }
      keptFor ??= runningOrigin;
    }
    if (saved !== undefined && savedFor !== undefined && config.sources[key] !== 'env') {
      if (savedFor === origin) secrets[key] = saved;
      else keptFor ??= savedFor;
    }
  }
  if (Object.keys(secrets).length > 0) {
    return { url, secrets, username, credentials: 'saved', savedKeyFor: null };
  }
  return { url, secrets, username, credentials: 'none', savedKeyFor: keptFor };
}
