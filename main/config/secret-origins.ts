import type { ConfigKey } from '../../shared/api/settings.js';
import type { ConfigIssue, ConfigSource } from './config-types.js';

/**
 * A peer secret belongs to the origin it was saved for (issue #35.3): it is sent there and nowhere
 * else. Each peer's address and the secrets the bridge sends to it:
 */
export const peerSecretKeys = {
  crm: { url: 'CRM_URL', secrets: ['CRM_API_KEY', 'CRM_PASSWORD'] },
  postsvc: { url: 'POSTSVC_URL', secrets: ['POSTSVC_API_KEY'] },
  gateway: { url: 'GATEWAY_URL', secrets: ['GATEWAY_API_KEY'] },
  automation: { url: 'AUTOMATION_URL', secrets: ['AUTOMATION_AUTH_HEADER'] },
  // OBS never receives the password itself (challenge and response), but a host of someone else's
  // choosing can relay the real OBS's challenge and log in with the answer.
  recorder: { url: 'RECORDER_OBS_URL', secrets: ['RECORDER_OBS_PASSWORD'] },
} as const satisfies Record<string, { url: ConfigKey; secrets: readonly ConfigKey[] }>;

export type SecretPeer = keyof typeof peerSecretKeys;
export type PeerSecretKey = (typeof peerSecretKeys)[SecretPeer]['secrets'][number];
export const peerSecretKeyNames = Object.values(peerSecretKeys).flatMap(
  (peer): readonly PeerSecretKey[] => peer.secrets,
);

/** The origin each secret saved in config.json belongs to (kept there beside the values). */
export type SecretOrigins = Partial<Record<PeerSecretKey, string>>;

type Values = Readonly<Partial<Record<ConfigKey, string>>>;

/** Scheme, host and port (URL.origin) of an address; null for none (unset, `none`, not a URL). */
export function originOf(url: string | undefined): string | null {
  if (url === undefined || !URL.canParse(url)) return null;
  const { origin } = new URL(url);
  return origin === 'null' ? null : origin;
}

const peers = Object.entries(peerSecretKeys) as [SecretPeer, (typeof peerSecretKeys)[SecretPeer]][];

/** The peer a config key is a secret of; null for any other key. */
export function peerOfSecret(key: ConfigKey): SecretPeer | null {
  const found = peers.find(([, peer]) => {
    const secrets: readonly ConfigKey[] = peer.secrets;
    return secrets.includes(key);
  });
  return found ? found[0] : null;
}

export interface SecretOriginsAtLoad {
  /** What config.json holds from now on: its bindings, and those made at this load. */
  stored: SecretOrigins;
  /** Secrets from a config.json of an earlier release, bound at this load to the address beside them. */
  boundNow: { key: PeerSecretKey; origin: string }[];
  /** Peers whose saved secret belongs to another origin than their address in force: that origin. */
  refused: Partial<Record<SecretPeer, string>>;
}

/**
 * At start. A secret from the environment goes to the address in force (the operator set both).
 * One from the file goes only to the origin bound to it; one without a binding (saved by an earlier
 * release) is bound now to the URL saved beside it, else to the address in force, as that release
 * would have used it.
 */
export function secretOriginsAtLoad(
  running: { values: Values; sources: Readonly<Partial<Record<ConfigKey, ConfigSource>>> },
  file: { values: Values; secretOrigins: SecretOrigins },
): SecretOriginsAtLoad {
  const stored: SecretOrigins = { ...file.secretOrigins };
  const boundNow: SecretOriginsAtLoad['boundNow'] = [];
  const refused: SecretOriginsAtLoad['refused'] = {};
  for (const [peer, { url, secrets }] of peers) {
    const inForce = originOf(running.values[url]);
    for (const key of secrets) {
      if (running.sources[key] !== 'file') continue;
      let savedFor = stored[key];
      if (savedFor === undefined) {
        const beside = originOf(file.values[url]) ?? inForce;
        if (beside === null) continue;
        stored[key] = savedFor = beside;
        boundNow.push({ key, origin: beside });
      }
      if (inForce !== null && savedFor !== inForce) refused[peer] ??= savedFor;
    }
  }
  return { stored, boundNow, refused };
}

export interface SaveInput {
  /** The values the request sets ('' removes one). */
  request: Values;
  /** The config file's values once the request is applied. */
  next: Values;
  /** The bindings config.json holds now. */
  saved: SecretOrigins;
  /** What is in force, and from where (a value from the environment wins at the next start too). */
  running: { values: Values; sources: Readonly<Partial<Record<ConfigKey, ConfigSource>>> };
}

/**
 * When Settings saves. A secret set in the request is bound to the address it will be sent to; a
 * request moving a peer's URL to another origin is refused for each secret saved for another one
 * (or for none) that it does not set again or remove: nothing is cleared behind the operator's
 * back. A secret from the environment keeps its peer at the origin in force at start.
 */
export function secretOriginsOnSave({ request, next, saved, running }: SaveInput): {
  issues: ConfigIssue[];
  stored: SecretOrigins;
} {
  const issues: ConfigIssue[] = [];
  const stored: SecretOrigins = { ...saved };
  const issue = (field: PeerSecretKey, message: string) =>
    issues.push({ field, rule: 'secret-origin', message });
  for (const [, { url, secrets }] of peers) {
    const urlFromEnv = running.sources[url] === 'env';
    const destination = originOf(urlFromEnv ? running.values[url] : next[url]);
    const moves = request[url] !== undefined && destination !== null;
    for (const key of secrets) {
      const value = request[key];
      if (running.sources[key] === 'env') {
        const boundTo = originOf(running.values[url]);
        if (moves && destination !== boundTo)
          issue(
            key,
            `set by the environment for ${boundTo ?? 'no address'}; Settings cannot move ${url} to ${destination} (change both where the bridge is started)`,
          );
      } else if (value === '') {
        delete stored[key];
      } else if (value !== undefined) {
        // Saved with no address, it is bound at the first start that has one from the environment;
        // an address given here later must come with the secret again.
        if (destination === null) delete stored[key];
        else stored[key] = destination;
      } else if (next[key] !== undefined && moves && saved[key] !== destination) {
        issue(
          key,
          `saved ${saved[key] === undefined ? 'with no address' : `for ${saved[key]}`}; to move ${url} to ${destination}, set it again in the same save (or remove it first)`,
        );
      }
    }
  }
  return { issues, stored };
}
