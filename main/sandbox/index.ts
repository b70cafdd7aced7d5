/**
 * The simulated peers of DESIGN §8: four real HTTP servers on loopback that behave like
 * the real CRM, posting provider, publishing gateway and automation engine (DESIGN §5).
 * The app runs against them when no CRM is configured; every integration test uses them.
 */
import { randomBytes } from 'node:crypto';
import {
  startSandboxAutomation,
  type SandboxAutomation,
  type SandboxAutomationOptions,
} from './automation/index.js';
import { startSandboxCrm, type SandboxCrm, type SandboxCrmOptions } from './crm/index.js';
import { seedDemoData, type DemoDataSummary } from './demo-data.js';
import { startSandboxGateway, type SandboxGateway, type SandboxGatewayOptions } from './gateway/index.js';
import { startSandboxPostsvc, type SandboxPostsvc, type SandboxPostsvcOptions } from './postsvc/index.js';
import { startSandboxObs, type SandboxObs, type SandboxObsOptions } from './obs/index.js';
import { WorldKeeper } from './world-keeper.js';

export interface SandboxPeers {
  crm: SandboxCrm;
  postsvc: SandboxPostsvc;
  gateway: SandboxGateway;
  automation: SandboxAutomation;
  /** The simulated OBS (obs-websocket 5 on loopback; no control key: it is spoken to as OBS). */
  obs: SandboxObs;
  /** The key the four peers' `/__sandbox/*` control routes require (`X-Sandbox-Key`). */
  controlKey: string;
  /** Set when started with `seedDemoData` and the demo was seeded now (not restored from `worldDir`). */
  demo: DemoDataSummary | null;
  /** True when the world was restored from `worldDir` (so nothing was seeded). */
  restored: boolean;
  stop(): Promise<void>;
}

export interface SandboxPeersOptions {
  seedDemoData?: boolean;
  /**
   * Where the peers keep their world across restarts (the bridge's data dir): restored from it
   * at start when it holds one (no seeding), else seeded and written. Unset (tests): the world
   * lives in memory only, fresh at every start.
   */
  worldDir?: string;
  /** Where a world file that cannot be read or written is reported (default console.warn). */
  warn?: (message: string) => void;
  /** The control key shared by the four peers (default: a random one). */
  controlKey?: string;
  /** The sandbox clock, shared by all four peers (default: the real one). */
  now?: () => Date;
  /** Per-peer options; their `now` defaults to the shared one. */
  crm?: SandboxCrmOptions;
  postsvc?: SandboxPostsvcOptions;
  gateway?: SandboxGatewayOptions;
  automation?: SandboxAutomationOptions;
  obs?: SandboxObsOptions;
}

export async function startSandboxPeers(options: SandboxPeersOptions = {}): Promise<SandboxPeers> {
  const now = options.now ?? (() => new Date());
  const controlKey = options.controlKey ?? randomBytes(24).toString('base64url');
  const shared = { now, controlKey };
  const started = await Promise.allSettled([
    startSandboxCrm({ ...shared, ...options.crm }),
    startSandboxPostsvc({ ...shared, ...options.postsvc }),
    startSandboxGateway({ ...shared, ...options.gateway }),
    startSandboxAutomation({ ...shared, ...options.automation }),
    startSandboxObs({ now, ...options.obs }),
  ] as const);
  const [crm, postsvc, gateway, automation, obs] = started;
  if (
    crm.status !== 'fulfilled' ||
    postsvc.status !== 'fulfilled' ||
    gateway.status !== 'fulfilled' ||
    automation.status !== 'fulfilled' ||
    obs.status !== 'fulfilled'
  ) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
    const failure = started.find((s) => s.status === 'rejected');
    throw failure?.reason instanceof Error ? failure.reason : new Error('a sandbox peer failed to start');
  }
  const peers = {
    crm: crm.value,
    postsvc: postsvc.value,
    gateway: gateway.value,
    automation: automation.value,
    obs: obs.value,
  };
  const keeper = options.worldDir
    ? new WorldKeeper({
        dir: options.worldDir,
        peers,
        warn: options.warn ?? ((message) => console.warn(message)),
      })
    : null;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      // The last changes are written before the peers go (a quiet stop writes nothing).
      keeper?.stop();
      await Promise.all(Object.values(peers).map((peer) => peer.stop()));
    })());
  let demo: DemoDataSummary | null = null;
  let restored = false;
  try {
    restored = keeper?.restore() ?? false;
    if (!restored && options.seedDemoData) demo = seedDemoData(peers, now());
    // The peers catch up on their own clock: the provider publishes the posts that came due
    // while the sandbox was off (as the real one would have), before the bridge asks.
    peers.postsvc.posts();
    keeper?.save();
    keeper?.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...peers, controlKey, demo, restored, stop };
}

export { startSandboxCrm, startSandboxPostsvc, startSandboxGateway, startSandboxAutomation, startSandboxObs };
export type {
  SandboxCrm,
  SandboxCrmOptions,
  SandboxPostsvc,
  SandboxPostsvcOptions,
  SandboxGateway,
  SandboxGatewayOptions,
  SandboxAutomation,
  SandboxAutomationOptions,
  SandboxObs,
  SandboxObsOptions,
};
export { demoMetricsHistory, type DemoDataSummary } from './demo-data.js';
export { signEspoWebhook, phpJsonEncode, toCrmDatetime } from './crm/index.js';
export type { CrmWebhookEvent } from './crm/index.js';
export { crmWebhookEvents } from './crm/webhooks.js';
export { postsvcErrorCodes, type PostsvcPlan } from './postsvc/index.js';
