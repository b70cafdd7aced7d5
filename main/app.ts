import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { AreaContext, AreaModule } from './areas/area.js';
import { areaNames, buildAreas, type AreaName } from './areas/all-areas.js';
import type { RunningBridge, StartBridgeOptions } from './bridge-options.js';
import { areaMigrations } from './areas/migrations.js';
import { sandboxContracts } from '../shared/api/sandbox.js';
import { loadConfig } from './config/config.js';
import { createHttpServer, defaultHttpLimits, type HttpLimits } from './http/http-server.js';
import { createHttpApp } from './http/server.js';
import { ActivityLog } from './kernel/activity/activity-log.js';
import { AppError } from './kernel/app-error.js';
import { createActivityRepo } from './kernel/activity/repo.js';
import { systemClock } from './kernel/clock.js';
import { openBridgeDatabase, transactionOf } from './kernel/db.js';
import { groupCommitOf } from './kernel/commit-group.js';
import { JobQueue } from './kernel/jobs/queue.js';
import { createJobsRepo } from './kernel/jobs/repo.js';
import { acquireDataDirLock } from './kernel/data-dir-lock.js';
import { createLogger, logLevelFrom, logsToStdout } from './kernel/logger.js';
import { Scheduler } from './kernel/scheduler.js';
import { StorageState } from './kernel/storage-state.js';
import { readVersion } from './kernel/version.js';
import { buildPeers } from './peers/index.js';

export type { SecretStore } from './config/config.js';
export type { BridgeTuning, RunningBridge, StartBridgeOptions } from './bridge-options.js';

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

  // Loaded only in sandbox mode: a studio server never runs simulator code. It points config at the simulated peers.
  const sandbox = config.sandbox
    ? await undoneOnFailure(undo, async () =>
        (await import('./sandbox/bridge-sandbox.js')).startBridgeSandbox(config, {
          now,
          warn: (message) => logger.warn(message),
        }),
      )
    : null;
  undo.push(() => sandbox?.stop());

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
  };
  const wanted = new Set<AreaName>(options.areas ?? areaNames);
  const areas = buildAreas(
    ctx,
    wanted,
    {
      version,
      startedAt,
      storageReasons: () => storage.reasons(),
      tuning,
      webhookBudgetMs: options.webhookBudgetMs ?? 8_000,
      ...(options.secretStore ? { secretStore: options.secretStore } : {}),
      sandboxControlKey: sandbox?.controlKey ?? null,
    },
    // The sandbox's area first: its demo history is in before the other areas start.
    [sandbox ? sandbox.area(ctx) : sandboxOff],
  );
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
  sandbox?.connect(url);

  scheduler.every(
    'peer probes',
    tuning.peers?.probeEveryMs ?? PEER_PROBE_MS,
    () => peers.health.probeAll(),
    true,
  );
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
      sandbox?.disconnect();
      await scheduler.stop();
      // Stop accepting, let in-flight requests finish (areas close their streams first).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      app.closeEventStreams();
      for (const area of [...areas].reverse()) await area.stop?.();
      server.closeIdleConnections();
      // A request in flight now keeps its connection after its answer (keep-alive, 65 s): each one
      // is closed as it goes idle, so the stop ends with the last answer.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const forceAfter = setTimeout(() => {
        logger.warn('connections still open 10 s into the stop: closing them');
        server.closeAllConnections();
      }, 10_000);
      await closed;
      clearInterval(sweep);
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

/** With real peers the sandbox's routes are there (in /openapi.json too) and answer 404. */
const sandboxOff: AreaModule = {
  name: 'sandbox',
  routes(mount) {
    for (const contract of sandboxContracts) {
      mount(contract, () => {
        throw AppError.notFound('sandbox mode is off: this bridge talks to real peers');
      });
    }
  },
};

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
