import { peerNames } from '../../shared/api/health.js';
import type { BridgeConfig } from '../config/config.js';
import type { Clock } from '../kernel/clock.js';
import { AutomationClient } from './automation.js';
import { CrmClient } from './crm.js';
import { GatewayClient } from './gateway.js';
import { ObsClient } from './obs.js';
import { PeerHealthTracker } from './peer-health.js';
import { PostsvcClient } from './postsvc.js';

/** Every peer client, built once in app.ts and shared by the areas (null: not configured). */
export interface Peers {
  crm: CrmClient | null;
  postsvc: PostsvcClient | null;
  gateway: GatewayClient | null;
  automation: AutomationClient | null;
  /** The recorder's OBS (DESIGN §5.5); the recorder area starts and stops its connection. */
  obs: ObsClient | null;
  health: PeerHealthTracker;
}

/** Timing knobs of the peer clients (tests and benchmarks shorten or widen them). */
export interface PeerTuning {
  /** How often every peer is probed (30 s). */
  probeEveryMs?: number;
  postsvc?: { timeoutMs?: number; perSecond?: number };
  gateway?: { timeoutMs?: number; publishTimeoutMs?: number };
  obs?: { reconnectFirstMs?: number; reconnectMaxMs?: number; requestTimeoutMs?: number };
}

/**
 * One client per peer account: one limiter per provider profile and per gateway account, so a
 * 429 seen by any area holds back every area that talks to that account (DESIGN §5.2).
 */
export interface PeerHooks {
  /** Every write-back to a CRM record (the webhooks area marks the record touched). */
  onCrmWrite?: (entity: string, id: string) => void;
}

export function buildPeers(
  config: Readonly<BridgeConfig>,
  now: Clock,
  tuning: PeerTuning = {},
  hooks: PeerHooks = {},
): Peers {
  const health = new PeerHealthTracker(
    {
      crm: config.crm?.url ?? null,
      postsvc: config.postsvc?.url ?? null,
      gateway: config.gateway?.url ?? null,
      automation: config.automation?.url ?? null,
      obs: config.recorder?.url ?? null,
    },
    now,
  );
  const refused = config.refusedKeys;
  for (const peer of peerNames) {
    const savedFor = refused[peer === 'obs' ? 'recorder' : peer];
    if (savedFor !== undefined) health.refuseKey(peer, savedFor);
  }
  const crm = config.crm
    ? new CrmClient({
        ...config.crm,
        ...keyRefusal(refused.crm),
        onAttempt: health.observer('crm'),
        ...(hooks.onCrmWrite ? { onWrite: hooks.onCrmWrite } : {}),
      })
    : null;
  const postsvc = config.postsvc
    ? new PostsvcClient({
        url: config.postsvc.url,
        ...(config.postsvc.apiKey ? { apiKey: config.postsvc.apiKey } : {}),
        ...keyRefusal(refused.postsvc),
        onAttempt: health.observer('postsvc'),
        ...tuning.postsvc,
      })
    : null;
  const gateway = config.gateway
    ? new GatewayClient({
        ...config.gateway,
        ...keyRefusal(refused.gateway),
        onAttempt: health.observer('gateway'),
        ...tuning.gateway,
      })
    : null;
  const automation = config.automation
    ? new AutomationClient({
        ...config.automation,
        ...keyRefusal(refused.automation),
        onAttempt: health.observer('automation'),
      })
    : null;

  const obs = config.recorder
    ? new ObsClient({
        url: config.recorder.url,
        ...(config.recorder.password ? { password: config.recorder.password } : {}),
        ...keyRefusal(refused.recorder),
        now,
        reconnect: { firstMs: tuning.obs?.reconnectFirstMs, maxMs: tuning.obs?.reconnectMaxMs },
        ...(tuning.obs?.requestTimeoutMs ? { requestTimeoutMs: tuning.obs.requestTimeoutMs } : {}),
      })
    : null;

  if (crm) health.setProbe('crm', () => crm.checkCredentials());
  if (postsvc) health.setProbe('postsvc', () => postsvc.probe());
  if (gateway) health.setProbe('gateway', () => gateway.probe());
  if (automation) health.setProbe('automation', () => automation.probe());
  return { crm, postsvc, gateway, automation, obs, health };
}

const keyRefusal = (savedFor: string | undefined): { keyRefusedFor?: string } =>
  savedFor === undefined ? {} : { keyRefusedFor: savedFor };
