import { afterAll } from 'vitest';
import {
  startSandboxCrm,
  startSandboxPostsvc,
  type PostsvcPlan,
  type SandboxCrm,
  type SandboxCrmOptions,
  type SandboxPostsvc,
  type SandboxPostsvcOptions,
} from '../../main/sandbox/index.js';
import { startTestBridge, webhookIdsFor, type TestBridge } from './bridge.js';
import { crmAndPostsvcEnv } from './peers-env.js';

type TestBridgeOptions = NonNullable<Parameters<typeof startTestBridge>[1]>;

export interface PostingPeersOptions {
  /** The CRM's webhook secret, which the bridge verifies. */
  secret: string;
  /** The provider's plan and the bridge's POSTSVC_PLAN (business unless said). */
  plan?: PostsvcPlan;
  /** Over `{ warn: () => undefined }`: the CRM's loud "webhook deleted" lines stay out of the output. */
  crm?: SandboxCrmOptions;
  postsvc?: Omit<SandboxPostsvcOptions, 'plan'>;
}

export interface PostingBridgeOptions extends TestBridgeOptions {
  /** More environment over the CRM's and the provider's. */
  env?: Record<string, string>;
  /** The bridge's POSTSVC_PLAN, when it is not the provider's. */
  plan?: PostsvcPlan;
  /** The bridge's POSTSVC_API_KEY, when it is not the provider's. */
  postsvcKey?: string;
  /**
   * The CRM's webhooks go to this bridge, signed with `webhookIdsFor(ids)` (the CRM's own ids
   * when `ids` is not given), each batch gathered for `deliveryDelayMs` (20 unless said).
   */
  webhooks?: { ids?: string; deliveryDelayMs?: number };
}

export interface PostingPeers {
  crm: SandboxCrm;
  postsvc: SandboxPostsvc;
  /**
   * A bridge on the CRM and the provider, running the posting areas unless `areas` says otherwise.
   * It is stopped (and its own data dir removed) with the peers at the end of the file, if the
   * test has not done so.
   */
  startBridge(options?: PostingBridgeOptions): Promise<TestBridge>;
}

/**
 * The sandbox CRM and posting provider for the rest of this test file (top-level `await` in the
 * file: started while it is collected, stopped after its last test), and bridges started on them.
 */
export async function withPostingPeers(options: PostingPeersOptions): Promise<PostingPeers> {
  const plan = options.plan ?? 'business';
  const crm = await startSandboxCrm({ warn: () => undefined, ...options.crm });
  const postsvc = await startSandboxPostsvc({ ...options.postsvc, plan });
  const bridges: TestBridge[] = [];
  afterAll(async () => {
    crm.clearWebhookTarget();
    for (const bridge of bridges) await bridge.close();
    await crm.stop();
    await postsvc.stop();
  });

  async function startBridge({
    env = {},
    plan: bridgePlan = plan,
    postsvcKey,
    webhooks,
    ...bridgeOptions
  }: PostingBridgeOptions = {}): Promise<TestBridge> {
    const peersEnv = crmAndPostsvcEnv(crm, postsvc, { secret: options.secret, plan: bridgePlan, postsvcKey });
    const bridge = await startTestBridge(
      { ...peersEnv, ...env },
      { areas: ['health', 'webhooks', 'posting'], ...bridgeOptions },
    );
    bridges.push(bridge);
    if (webhooks) {
      crm.setWebhookTarget({
        baseUrl: bridge.url,
        secret: options.secret,
        ...(webhooks.ids ? { webhookIds: webhookIdsFor(webhooks.ids) } : {}),
        deliveryDelayMs: webhooks.deliveryDelayMs ?? 20,
      });
    }
    return bridge;
  }

  return { crm, postsvc, startBridge };
}

/** `withPostingPeers` and one bridge on them, shared by the file's tests. */
export async function withPostingBridge(
  options: PostingPeersOptions & { bridge?: PostingBridgeOptions },
): Promise<PostingPeers & { bridge: TestBridge }> {
  const peers = await withPostingPeers(options);
  return { ...peers, bridge: await peers.startBridge(options.bridge) };
}
