import { afterEach, beforeEach } from 'vitest';
import type { SandboxCrm } from '../../main/sandbox/index.js';
import type { CatchUpStatus } from '../../shared/api/health.js';
import type { TestBridge } from './bridge.js';
import { jobsIdle } from './settle.js';
import { tempDir, type TempDir } from './temp-dir.js';
import { eventually } from './wait.js';

export interface CatchUpBridgeOptions {
  crm: SandboxCrm;
  /** The CRM's webhook secret. */
  secret: string;
  /** Starts the bridge under test on `dataDir` (its peers, areas and clock). */
  start: (dataDir: string) => Promise<TestBridge>;
  /** The kinds of job a start's catch-up (and the webhooks) queue, all done before `caughtUp` answers. */
  jobKinds: readonly string[];
  /** The bridge's clock (the system's unless said). */
  now?: () => Date;
}

export interface CatchUpBridge {
  /** The bridge running now, if any. */
  readonly bridge: TestBridge | null;
  /** Starts the bridge on the test's data dir; the CRM's webhooks follow it, waiting retries kept. */
  start(): Promise<TestBridge>;
  /** Stops the bridge; the CRM's deliveries are refused until it is back. */
  stop(): Promise<void>;
  /** EspoCRM's four tries spent on everything gathered while the bridge was away. */
  espoGivesUp(): Promise<void>;
  /** This start's catch-up has reported and every job it (and the webhooks) queued is done. */
  caughtUp(bridge: TestBridge): Promise<CatchUpStatus>;
}

/**
 * CRM catch-up (DESIGN §6.9) end to end: each test has its own data dir, on which the bridge is
 * stopped and started again while the sandbox CRM changes records and EspoCRM gives up on
 * delivering them. Registers the hooks that give each test a fresh data dir and stop its bridge.
 */
export function withCatchUpBridge(options: CatchUpBridgeOptions): CatchUpBridge {
  const { crm, secret } = options;
  const now = options.now ?? (() => new Date());
  let data: TempDir;
  let bridge: TestBridge | null = null;
  let targetSet = false;
  /** When the bridge under test was started: its own catch-up finished after this. */
  let startedAt = '';

  beforeEach(() => {
    data = tempDir('catchup');
    targetSet = false;
  });
  afterEach(async () => {
    crm.setReceiverAway(false);
    crm.clearWebhookTarget();
    await bridge?.stop();
    bridge = null;
    data.remove();
  });

  return {
    get bridge() {
      return bridge;
    },
    async start() {
      startedAt = now().toISOString();
      const started = await options.start(data.path);
      bridge = started;
      if (targetSet) crm.retargetWebhooks(started.url);
      else crm.setWebhookTarget({ baseUrl: started.url, secret, deliveryDelayMs: 20 });
      targetSet = true;
      return started;
    },
    async stop() {
      await bridge?.stop();
      bridge = null;
      crm.setReceiverAway(true);
    },
    async espoGivesUp() {
      for (let i = 0; i < 5; i++) await crm.flushWebhooks();
      crm.setReceiverAway(false);
    },
    async caughtUp(b) {
      let last: CatchUpStatus | null = null;
      await eventually(async () => {
        const health = await b.call('GET', '/health');
        last = health.body.lastCatchUp ?? null;
        return last !== null && last.at >= startedAt;
      }, 90_000);
      for (const kind of options.jobKinds) await jobsIdle(b.url, kind);
      return last!;
    },
  };
}
