import type { Logger } from 'pino';
import type { HealthResponse } from '../shared/api/health.js';
import type { CrmClient } from './peers/crm.js';
import type { BridgeConfig } from './config/config.js';
import type { Mount } from './http/mount.js';
import type { JobQueue } from './kernel/jobs/queue.js';
import type { SandboxPeers } from './sandbox/index.js';
import type { ActivityLog } from './kernel/activity/activity-log.js';
import type { PeerHealthTracker } from './peers/peer-health.js';
import type { RecorderState } from './areas/recorder/recorder-state.js';
import type { WebhookIntake } from './areas/webhooks/intake.js';
import type { ActivityRepo } from './kernel/activity/repo.js';
import type { Db } from './kernel/db.js';
import type { JobsRepo } from './kernel/jobs/repo.js';
import type { SettingsRepo } from './areas/settings/repo.js';
import type { WebhooksRepo } from './areas/webhooks/repo.js';

/** What every feature gets: the shared services, built once by the composition root (app.ts). */
export interface BridgeCore {
  config: BridgeConfig;
  version: string;
  startedAt: Date;
  now: () => Date;
  logger: Logger;
  db: Db;
  repos: { activity: ActivityRepo; jobs: JobsRepo; webhooks: WebhooksRepo; settings: SettingsRepo };
  activity: ActivityLog;
  jobs: JobQueue;
  webhooks: WebhookIntake;
  peers: PeerHealthTracker;
  crm: CrmClient | null;
  recorder: RecorderState;
  sandbox: SandboxPeers | null;
  /** Features that own a part of /health fill these in (posting: quota; analytics: last run). */
  health: {
    quota?: () => HealthResponse['quota'];
    lastCollection?: () => HealthResponse['lastCollection'];
  };
}

/**
 * One area of the product (posting, broadcasts, analytics, ...). A feature registers its
 * webhook handlers and jobs in its factory, its routes in `mountRoutes`, and its timers in
 * `start`/`stop`. Adding an area = one factory in main/features.ts.
 */
export interface Feature {
  name: string;
  mountRoutes?(mount: Mount): void;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}
export type FeatureFactory = (core: BridgeCore) => Feature;
