import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { HttpClient } from './peers/http-client.js';
import { CrmClient } from './peers/crm.js';
import { loadConfig, type BridgeConfig, type SecretStore } from './config/config.js';
import type { BridgeCore, Feature, FeatureFactory } from './core.js';
import { allFeatures } from './features.js';
import { createHttpApp } from './http/server.js';
import { JobQueue } from './kernel/jobs/queue.js';
import { createLogger, type LogLevel } from './kernel/logger.js';
import type { SandboxPeers } from './sandbox/index.js';
import { ActivityLog } from './kernel/activity/activity-log.js';
import { PeerHealthTracker } from './peers/peer-health.js';
import { RecorderState } from './areas/recorder/recorder-state.js';
import { WebhookIntake } from './areas/webhooks/intake.js';
import { createActivityRepo } from './kernel/activity/repo.js';
import { openDatabase } from './kernel/db.js';
import { createJobsRepo } from './kernel/jobs/repo.js';
import { createSettingsRepo } from './areas/settings/repo.js';
import { createWebhooksRepo } from './areas/webhooks/repo.js';
import { readVersion } from './kernel/version.js';

export type { SecretStore } from './config/config.js';

export interface StartBridgeOptions {
  env?: NodeJS.ProcessEnv;
  /** Desktop: Electron safeStorage for secrets in the config file. */
  secretStore?: SecretStore;
  /** Desktop: better-sqlite3 built for Electron's ABI. */
  nativeBinding?: string;
  logLevel?: LogLevel;
  logToStdout?: boolean;
  /** Webhook answer budget (DESIGN §6.1: 8 s, under EspoCRM's 10 s timeout). */
  webhookBudgetMs?: number;
  dashboardDir?: string;
  /** Replaces the feature list (tests of one area). */
  features?: FeatureFactory[];
  now?: () => Date;
}

export interface RunningBridge {
  url: string;
  apiKey: string;
  sandbox: boolean;
  dataDir: string;
  configPath: string;
  stop(): Promise<void>;
}

const RETENTION_MS = 14 * 24 * 3600 * 1000;

/** Composition root: config → store → clients → services → features → HTTP (DESIGN §2). */
export async function startBridge(options: StartBridgeOptions = {}): Promise<RunningBridge> {
  const config = loadConfig({
    env: options.env ?? process.env,
    ...(options.secretStore ? { secretStore: options.secretStore } : {}),
  });
  const now = options.now ?? (() => new Date());
  const logger = createLogger({
    dataDir: config.dataDir,
    level: options.logLevel ?? 'info',
    stdout: options.logToStdout ?? true,
  });

  // Loaded only in sandbox mode: a studio server never runs simulator code.
  const sandbox = config.sandbox
    ? await (
        await import('./sandbox/index.js')
      ).startSandboxPeers({
        seedDemoData: true,
        postsvc: { plan: config.postsvcPlan },
      })
    : null;
  const webhookSecret = randomBytes(16).toString('hex');
  if (sandbox) useSandboxPeers(config, sandbox, webhookSecret);

  const db = openDatabase(path.join(config.dataDir, 'bridge.sqlite'), {
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  const repos = {
    activity: createActivityRepo(db),
    jobs: createJobsRepo(db),
    webhooks: createWebhooksRepo(db),
    settings: createSettingsRepo(db),
  };
  const activity = new ActivityLog(repos.activity, logger, now);
  const jobs = new JobQueue({ repo: repos.jobs, activity, logger, now });
  const peers = new PeerHealthTracker(
    {
      crm: config.crm?.url ?? null,
      postsvc: config.postsvc?.url ?? null,
      gateway: config.gateway?.url ?? null,
      automation: config.automation?.url ?? null,
    },
    now,
  );
  const crm = config.crm ? new CrmClient({ ...config.crm, onAttempt: peers.observer('crm') }) : null;
  addHealthProbes(config, peers, crm);

  const core: BridgeCore = {
    config,
    version: readVersion(),
    startedAt: now(),
    now,
    logger,
    db,
    repos,
    activity,
    jobs,
    webhooks: new WebhookIntake({
      repo: repos.webhooks,
      jobs,
      activity,
      now,
      budgetMs: options.webhookBudgetMs ?? 8_000,
    }),
    peers,
    crm,
    recorder: new RecorderState(now),
    sandbox,
    health: {},
  };
  const features: Feature[] = (options.features ?? allFeatures(options.secretStore)).map((factory) =>
    factory(core),
  );
  const app = createHttpApp(
    core,
    features,
    options.dashboardDir ? { dashboardDir: options.dashboardDir } : {},
  );

  let server: Server;
  try {
    server = await listen(app, config.port, config.host);
  } catch (error) {
    db.close();
    await sandbox?.stop();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(config.host)}:${port}`;
  sandbox?.crm.setWebhookTarget({ baseUrl: url, secret: webhookSecret });

  jobs.start();
  peers.startProbing();
  for (const feature of features) await feature.start?.();
  const maintenance = setInterval(() => prune(core), 3_600_000);
  maintenance.unref();
  prune(core);
  activity.record(
    'bridge.started',
    'info',
    `bridge ${core.version} started on ${url}${sandbox ? ' (sandbox)' : ''}`,
  );

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(maintenance);
      peers.stop();
      sandbox?.crm.clearWebhookTarget();
      // Stop accepting, let in-flight requests finish (features close their streams first).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const feature of [...features].reverse()) await feature.stop?.();
      server.closeIdleConnections();
      const forceAfter = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(forceAfter);
      await jobs.stop();
      db.close();
      await sandbox?.stop();
      logger.flush();
    })());

  return {
    url,
    apiKey: config.apiKey,
    sandbox: sandbox !== null,
    dataDir: config.dataDir,
    configPath: config.configPath,
    stop,
  };
}

/** In sandbox mode the simulated peers stand in for every peer (DESIGN §8). */
function useSandboxPeers(config: BridgeConfig, sandbox: SandboxPeers, webhookSecret: string): void {
  config.crm = { url: sandbox.crm.url, apiKey: sandbox.crm.apiKey };
  config.webhookSecrets = [webhookSecret];
  config.postsvc = {
    url: sandbox.postsvc.url,
    apiKey: sandbox.postsvc.apiKey,
    plan: config.postsvcPlan,
  };
  config.gateway = { url: sandbox.gateway.url, apiKey: sandbox.gateway.apiKey };
  config.automation = { url: sandbox.automation.url };
}

function addHealthProbes(config: BridgeConfig, peers: PeerHealthTracker, crm: CrmClient | null): void {
  const once = { attempts: 1, backoff: { baseMs: 0, maxMs: 0, jitter: 0 } };
  if (crm) peers.setProbe('crm', () => crm.checkCredentials());
  if (config.postsvc) {
    const client = new HttpClient({
      peer: 'postsvc',
      baseUrl: config.postsvc.url,
      headers: { Authorization: `Bearer ${config.postsvc.apiKey}` },
      timeoutMs: 5_000,
      retry: once,
      onAttempt: peers.observer('postsvc'),
    });
    peers.setProbe('postsvc', () => client.request({ method: 'GET', path: '/user' }));
  }
  // The gateway and n8n have no credential check: any HTTP answer means reachable.
  for (const [peer, peerConfig, probePath] of [
    ['gateway', config.gateway, '/'],
    ['automation', config.automation, '/healthz'],
  ] as const) {
    if (!peerConfig) continue;
    const client = new HttpClient({
      peer,
      baseUrl: peerConfig.url,
      timeoutMs: 5_000,
      retry: once,
      onAttempt: peers.observer(peer),
    });
    peers.setProbe(peer, () => client.request({ method: 'GET', path: probePath }));
  }
}

function prune(core: BridgeCore): void {
  const cutoff = new Date(core.now().getTime() - RETENTION_MS).toISOString();
  core.repos.activity.pruneBefore(cutoff);
  core.repos.webhooks.pruneBefore(cutoff);
  core.repos.jobs.pruneFinishedBefore(cutoff);
}

function listen(app: ReturnType<typeof createHttpApp>, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
