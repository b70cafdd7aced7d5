import type { AreaName, AreaTuning } from './areas/all-areas.js';
import type { SecretStore } from './config/config.js';
import type { HttpLimits } from './http/http-server.js';
import type { Clock } from './kernel/clock.js';
import type { LogLevel } from './kernel/logger.js';
import type { PeerTuning } from './peers/index.js';

// What startBridge (app.ts) takes and what it gives back.

/** Timing knobs of the peers and areas (tests and benchmarks shorten or widen them). */
export interface BridgeTuning extends AreaTuning {
  peers?: PeerTuning;
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
