import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { AreaContext, AreaModule, DemoPeers } from './areas/area.js';
import { analyticsArea, type AnalyticsTuning } from './areas/analytics/module.js';
import { broadcastsArea, type BroadcastsTuning } from './areas/broadcasts/module.js';
import { clipsArea, type ClipsTuning } from './areas/clips/module.js';
import { contentArea } from './areas/content/module.js';
import { guestsArea } from './areas/guests/module.js';
import { healthArea } from './areas/health/module.js';
import { postingArea, type PostingTuning } from './areas/posting/module.js';
import { publishingArea } from './areas/publishing/module.js';
import { recorderArea } from './areas/recorder/module.js';
import { rendersArea, type RendersTuning } from './areas/renders/module.js';
import { settingsArea } from './areas/settings/module.js';
import { webhooksArea, type WebhooksModule } from './areas/webhooks/module.js';
import { areaMigrations } from './areas/migrations.js';
import { loadConfig, type BridgeConfig, type SecretStore } from './config/config.js';
import { createHttpServer, defaultHttpLimits, type HttpLimits } from './http/http-server.js';
import { createHttpApp } from './http/server.js';
import { ActivityLog } from './kernel/activity/activity-log.js';
import { createActivityRepo } from './kernel/activity/repo.js';
import { systemClock, type Clock } from './kernel/clock.js';
import { openBridgeDatabase, transactionOf } from './kernel/db.js';
import { groupCommitOf } from './kernel/commit-group.js';
import { JobQueue } from './kernel/jobs/queue.js';
import { locateMediaTools } from './kernel/media-tools.js';
import { createJobsRepo } from './kernel/jobs/repo.js';
import { acquireDataDirLock } from './kernel/data-dir-lock.js';
import { createLogger, logLevelFrom, logsToStdout, type LogLevel } from './kernel/logger.js';
import { Scheduler } from './kernel/scheduler.js';
import { StorageState } from './kernel/storage-state.js';
import { readVersion } from './kernel/version.js';
import { buildPeers, type PeerTuning } from './peers/index.js';
import type { SandboxPeers, socialMetricsHistory as SocialMetricsHistory } from './sandbox/index.js';

export type { SecretStore } from './config/config.js';

/** The areas of the bridge (DESIGN §2), in the order their routes are mounted. */
export const areaNames = [
  'health',
  'webhooks',
  'recorder',
  'settings',
  'broadcasts',
  'publishing',
  'analytics',
  'guests',
  'content',
  'posting',
  'clips',
  'renders',
] as const;
export type AreaName = (typeof areaNames)[number];

/** Timing knobs of the peers and areas (tests and benchmarks shorten or widen them). */
export interface BridgeTuning {
  peers?: PeerTuning;
  posting?: PostingTuning;
  analytics?: AnalyticsTuning;
  broadcasts?: BroadcastsTuning;
  clips?: ClipsTuning;
  renders?: RendersTuning;
  /** Tests only: CRM catch-up this often (ms) instead of every CRM_CATCHUP_MINUTES (which counts in whole minutes). */
  webhooks?: { catchUpEveryMs?: number };
  /** Timeouts, connection cap and /events buffer (issue #12). */
  http?: Partial<HttpLimits>;
  /**
   * Tests only: a database that can grow by so many pages, then is full (kernel/db.ts); the log
   * written to this file instead of the data dir's (a full disk: /dev/full; no env var sets it).
   */
  storage?: { testGrowthLimitPages?: number; testLogFile?: string };
}

export interface StartBridgeOptions {
  env?: NodeJS.ProcessEnv;
  /** Desktop: Electron safeStorage for secrets in the config file. */
  secretStore?: SecretStore;
  /** Desktop: better-sqlite3 built for Electron's ABI. */
  nativeBinding?: string;
  /** Default: LOG_LEVEL, else info. */
  logLevel?: LogLevel;
  /** Default: only at debug and trace (the log file under the data dir always has it). */
  logToStdout?: boolean;
  /** Webhook answer budget (DESIGN §6.1: 8 s, under EspoCRM's 10 s timeout). */
  webhookBudgetMs?: number;
  dashboardDir?: string;
  /** Runs only these areas (tests of one area); all by default. */
  areas?: readonly AreaName[];
  tuning?: BridgeTuning;
  now?: Clock;
}

export interface RunningBridge {
  url: string;
  apiKey: string;
  /** Whether the key came from the environment (else from config.json, generated there on first run). */
  apiKeyFromEnv: boolean;
  sandbox: boolean;
  dataDir: string;
  configPath: string;
  stop(): Promise<void>;
}

const RETENTION_MS = 14 * 24 * 3600 * 1000;
const PEER_PROBE_MS = 30_000;

/** Composition root: config → store → peers → kernel → areas → HTTP (DESIGN §2). */
export async function startBridge(options: StartBridgeOptions = {}): Promise<RunningBridge> {
  const config = loadConfig({
    env: options.env ?? process.env,
    ...(options.secretStore ? { secretStore: options.secretStore } : {}),
  });
  const now = options.now ?? systemClock;
  const version = readVersion();
  const tuning = options.tuning ?? {};
  // One bridge per data dir (DESIGN §7): locked before the log, the database and job recovery.
  const lock = await acquireDataDirLock(config.dataDir);
  // What a failed start undoes, newest first.
  const undo: Array<() => unknown> = [() => lock.release()];
  // Right after the lock, before the sandbox writes its world and before any peer is called: a
  // database a newer release migrated is refused; one about to be migrated is backed up first (issue #35.2).
  const { db, backup } = await undoneOnFailure(undo, () =>
    openBridgeDatabase(path.join(config.dataDir, 'bridge.sqlite'), {
      migrations: areaMigrations,
      release: version,
      now,
      ...(tuning.storage?.testGrowthLimitPages !== undefined
        ? { testGrowthLimitPages: tuning.storage.testGrowthLimitPages }
        : {}),
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    }),
  );
  undo.push(() => db.close());
  const level = options.logLevel ?? logLevelFrom(options.env ?? process.env);
  const { logger, file: logFile } = await undoneOnFailure(undo, () =>
    createLogger({
      dataDir: config.dataDir,
      level,
      stdout: options.logToStdout ?? logsToStdout(level),
      ...(tuning.storage?.testLogFile !== undefined ? { testLogFile: tuning.storage.testLogFile } : {}),
    }),
  );
  undo.push(() => logFile?.close());
  if (config.dataDirLinkedFrom)
    logger.info(
      { dataDir: config.dataDir, linkedFrom: config.dataDirLinkedFrom },
      `the data dir ${config.dataDirLinkedFrom} is a link: its files are in ${config.dataDir}`,
    );
  for (const note of config.loadNotes) logger.warn(note);
  if (backup) logger.info({ backup }, `the database was backed up to ${backup} before it was migrated`);
  const storage = new StorageState(now, () => logFile?.health() ?? null);
  const startedAt = now();

  // Loaded only in sandbox mode: a studio server never runs simulator code.
  const simulators = config.sandbox ? await import('./sandbox/index.js') : null;
  const sandbox = simulators
    ? await undoneOnFailure(undo, () =>
        simulators.startSandboxPeers({
          seedDemoData: true,
          // The sandbox's world lives in the data dir: seeded once, the operator's changes kept (DESIGN §8).
          worldDir: config.dataDir,
          warn: (message) => logger.warn(message),
          now,
          postsvc: { plan: config.postsvcPlan },
          obs: simulatedObsFiles(config),
        }),
      )
    : null;
  undo.push(() => sandbox?.stop());
  // The simulated CRM signs with the first configured secret, so the operator's are honoured.
  const webhookSecret = config.webhookSecrets[0] ?? randomBytes(16).toString('hex');
  if (sandbox) useSandboxPeers(config, sandbox, webhookSecret);

  const activityRepo = createActivityRepo(db);
  const jobsRepo = createJobsRepo(db);
  const groupCommit = groupCommitOf(db, storage);
  const activity = new ActivityLog(activityRepo, logger, now, groupCommit);
  const jobs = new JobQueue({ repo: jobsRepo, activity, logger, now, groupCommit });
  const scheduler = new Scheduler(logger);
  // Told of every CRM write-back by the areas that listen for them (the webhooks area's record marks).
  const crmWriteListeners: NonNullable<AreaModule['onCrmWrite']>[] = [];
  const peers = buildPeers(config, now, tuning.peers, {
    onCrmWrite: (entity, id) => {
      for (const listener of crmWriteListeners) listener(entity, id);
    },
  });

  const ctx: AreaContext = {
    now,
    logger,
    activity,
    jobs,
    scheduler,
    transaction: transactionOf(db),
    groupCommit,
    repo: (create) => create(db),
    peers,
    config,
    demo:
      simulators && sandbox
        ? demoPeersOf(
            sandbox,
            simulators.socialMetricsHistory,
            config,
            (await import('./sandbox/rehearsal.js')).rehearsalControls(sandbox),
          )
        : null,
  };
  const wanted = new Set<AreaName>(options.areas ?? areaNames);
  const areas = buildAreas(ctx, wanted, {
    version,
    startedAt,
    storage,
    tuning,
    webhookBudgetMs: options.webhookBudgetMs ?? 8_000,
    ...(options.secretStore ? { secretStore: options.secretStore } : {}),
    sandboxControlKey: sandbox?.controlKey ?? null,
  });
  for (const area of areas) if (area.onCrmWrite) crmWriteListeners.push(area.onCrmWrite);
  const limits: HttpLimits = { ...defaultHttpLimits, ...tuning.http };
  const app = createHttpApp({ config, logger, activity, version, storage }, areas, {
    limits,
    ...(options.dashboardDir ? { dashboardDir: options.dashboardDir } : {}),
  });

  const server: Server = await undoneOnFailure(undo, () =>
    listen(createHttpServer(app, limits), config.port, config.host),
  );
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(config.host)}:${port}`;
  lock.setUrl(url);
  sandbox?.crm.setWebhookTarget({ baseUrl: url, secret: webhookSecret });

  scheduler.every('peer probes', PEER_PROBE_MS, () => peers.health.probeAll(), true);
  scheduler.every(
    'retention pruning',
    3_600_000,
    () => {
      const cutoff = new Date(now().getTime() - RETENTION_MS).toISOString();
      activityRepo.pruneBefore(cutoff);
      jobsRepo.pruneFinishedBefore(cutoff);
    },
    true,
  );
  jobs.start();
  for (const area of areas) await area.start?.();
  scheduler.start();
  activity.record(
    'bridge.started',
    'info',
    `bridge ${version} started on ${url}${sandbox ? ' (sandbox)' : ''}`,
  );

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      sandbox?.crm.clearWebhookTarget();
      await scheduler.stop();
      // Stop accepting, let in-flight requests finish (areas close their streams first).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      app.closeEventStreams();
      for (const area of [...areas].reverse()) await area.stop?.();
      server.closeIdleConnections();
      const forceAfter = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(forceAfter);
      await jobs.stop();
      groupCommit.flush();
      activity.flush();
      db.close();
      lock.release();
      await sandbox?.stop();
      // Written at once or dropped: on a full disk the process must still end (DESIGN §7).
      logFile?.close();
    })());

  return {
    url,
    apiKey: config.apiKey,
    apiKeyFromEnv: config.sources.BRIDGE_API_KEY === 'env',
    sandbox: sandbox !== null,
    dataDir: config.dataDir,
    configPath: config.configPath,
    stop,
  };
}

interface AreaWiring {
  version: string;
  startedAt: Date;
  storage: StorageState;
  tuning: BridgeTuning;
  webhookBudgetMs: number;
  secretStore?: SecretStore;
  sandboxControlKey: string | null;
}

type RunningArea = AreaModule;

/**
 * Builds the wanted areas and hands each what it asks of the others through their modules:
 * health reads posting's quota and analytics' last run; clips reads the recorder's takes and marks,
 * renders the clips' in/out and cues; the webhooks area runs every area's item handlers.
 */
function buildAreas(ctx: AreaContext, wanted: ReadonlySet<AreaName>, wiring: AreaWiring): RunningArea[] {
  const analytics = wanted.has('analytics') ? analyticsArea(ctx, wiring.tuning.analytics) : null;
  const posting = wanted.has('posting')
    ? postingArea(ctx, wiring.tuning.posting, analytics ? (id) => analytics.latestPostNumbers(id) : undefined)
    : null;
  const guests = wanted.has('guests') ? guestsArea(ctx) : null;
  const publishing = wanted.has('publishing') ? publishingArea(ctx) : null;
  const recorder = wanted.has('recorder') ? recorderArea(ctx) : null;
  const clips = wanted.has('clips')
    ? clipsArea(ctx, wiring.tuning.clips, recorder ? (id) => recorder.take(id) : null)
    : null;
  const built: Record<AreaName, RunningArea | null> = {
    health: null,
    webhooks: null,
    recorder,
    settings: wanted.has('settings') ? settingsArea(ctx, wiring.secretStore, wiring.sandboxControlKey) : null,
    broadcasts: wanted.has('broadcasts') ? broadcastsArea(ctx, wiring.tuning.broadcasts) : null,
    publishing,
    analytics,
    guests,
    content: wanted.has('content')
      ? contentArea(ctx, guests?.contentStages ?? null, guests?.contentChanged ?? null)
      : null,
    posting,
    clips,
    renders: wanted.has('renders') && clips ? rendersArea(ctx, clips, wiring.tuning.renders) : null,
  };
  let webhooks: WebhooksModule | null = null;
  if (wanted.has('webhooks')) {
    const handlers = Object.values(built).flatMap((area) => (area?.webhooks ? [area.webhooks] : []));
    const catchUp = Object.values(built).flatMap((area) => (area?.catchUp ? [area.catchUp] : []));
    webhooks = webhooksArea(ctx, {
      handlers,
      catchUp,
      budgetMs: wiring.webhookBudgetMs,
      ...(wiring.tuning.webhooks?.catchUpEveryMs !== undefined
        ? { catchUpEveryMs: wiring.tuning.webhooks.catchUpEveryMs }
        : {}),
    });
    built.webhooks = webhooks;
  }
  if (wanted.has('health')) {
    built.health = healthArea(ctx, {
      version: wiring.version,
      startedAt: wiring.startedAt,
      quota: posting ? () => posting.quota() : () => null,
      lastCollection: analytics ? () => analytics.lastCollection() : () => null,
      lastCatchUp: webhooks ? () => webhooks.lastCatchUp() : () => null,
      storageReasons: () => wiring.storage.reasons(),
      alarms: [posting, publishing, analytics].flatMap((area) =>
        area ? [(now: Date) => area.alarms(now)] : [],
      ),
    });
  }
  return areaNames.flatMap((name) => (built[name] ? [built[name]] : []));
}

/**
 * In sandbox mode the simulated peers stand in for every peer (DESIGN §8), with their own keys: a
 * key saved for a real peer is neither sent to them nor refused.
 */
function useSandboxPeers(config: BridgeConfig, sandbox: SandboxPeers, webhookSecret: string): void {
  const { recorder } = config.refusedKeys;
  config.refusedKeys = recorder === undefined ? {} : { recorder };
  config.crm = { url: sandbox.crm.url, apiKey: sandbox.crm.apiKey };
  if (config.webhookSecrets.length === 0) config.webhookSecrets = [webhookSecret];
  config.postsvc = {
    url: sandbox.postsvc.url,
    apiKey: sandbox.postsvc.apiKey,
    plan: config.postsvcPlan,
  };
  config.gateway = { url: sandbox.gateway.url, apiKey: sandbox.gateway.apiKey };
  config.automation = { url: sandbox.automation.url };
  // The simulated OBS unless the operator named a real one, or none (DESIGN §8).
  if (!config.recorder && !config.recorderOff) config.recorder = { url: sandbox.obs.url };
}

/** What areas may see of the simulators: demo records and the engine's received calls. */
function demoPeersOf(
  sandbox: SandboxPeers,
  socialMetricsHistory: typeof SocialMetricsHistory,
  config: Readonly<BridgeConfig>,
  rehearsal: DemoPeers['rehearsal'],
): DemoPeers {
  return {
    rehearsal,
    ...(config.recorder?.url === sandbox.obs.url ? { obs: simulatedObsButtons(sandbox.obs) } : {}),
    crmRecords: (entity) => sandbox.crm.list(entity as Parameters<SandboxPeers['crm']['list']>[0]),
    socialMetricsHistory: (platforms, now, days) =>
      socialMetricsHistory(platforms as Parameters<typeof SocialMetricsHistory>[0], now, days),
    gateway: {
      startEncoder: (broadcastId) => {
        if (!sandbox.gateway.broadcasts().some((b) => b.id === broadcastId)) return null;
        return sandbox.gateway.startEncoder(broadcastId).status;
      },
    },
    automation: {
      workflows: () => sandbox.automation.workflows(),
      received: () => sandbox.automation.received(),
    },
  };
}

/**
 * The simulated OBS writes a small real file per take when FFmpeg is there (DESIGN §8), in the data
 * dir, so the sandbox can rehearse renders.
 */
function simulatedObsFiles(config: BridgeConfig): { recordingDir: string; ffmpeg?: string } {
  const ffmpeg = locateMediaTools(config).ffmpeg?.path;
  return { recordingDir: path.join(config.dataDir, 'sandbox-recordings'), ...(ffmpeg ? { ffmpeg } : {}) };
}

/** The simulated OBS's buttons, for the Recorder page in sandbox mode. */
function simulatedObsButtons(obs: SandboxPeers['obs']): NonNullable<DemoPeers['obs']> {
  return {
    url: obs.url,
    press(action) {
      const { active, paused } = obs.recording;
      if (action === 'drop') obs.dropConnections();
      else if (action === 'start') {
        if (active) return 'OBS is already recording';
        obs.startRecording();
      } else if (!active) return 'OBS is not recording';
      else if (action === 'stop') obs.stopRecording();
      else if (action === 'pause') {
        if (paused) return 'the recording is already paused';
        obs.pauseRecording();
      } else {
        if (!paused) return 'the recording is not paused';
        obs.resumeRecording();
      }
      return null;
    },
  };
}

/** Runs a start-up step; when it throws, undoes the steps before it (newest first) and rethrows. */
async function undoneOnFailure<T>(undo: Array<() => unknown>, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    for (const done of undo.splice(0).reverse()) await done();
    throw error;
  }
}

function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
