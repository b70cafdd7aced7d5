import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/ports.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/wait.js';

/** The real headless bridge (`node dist/main/cli.js serve`) in sandbox mode, on a free port (loopback by default). */
export interface RunningBridge {
  url: string;
  apiKey: string;
  dataDir: string;
  logFile: string;
  stop: () => Promise<void>;
  /** Stops the process (SIGTERM) but keeps its port and data dir, for `startAgain`. */
  stopProcess: () => Promise<void>;
  /** Starts the bridge again on the same port and data dir; resolves once GET /health answers. */
  startAgain: () => Promise<void>;
}

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const STARTUP_TIMEOUT_MS = 30_000;

/** Env of the developer's shell that would point the bridge at real peers or another data dir. */
const bridgeEnvPrefixes = ['BRIDGE_', 'CRM_', 'POSTSVC_', 'GATEWAY_', 'AUTOMATION_', 'COLLECT_', 'PUBLISH_'];

export interface BridgeProcessOptions {
  host?: string;
  logName?: string;
  /** More environment for the bridge (config keys of DESIGN §3). */
  env?: Record<string, string>;
  /** Written to `<dataDir>/config.json` before the start, as an operator would. */
  configFile?: Record<string, string>;
}

export async function startBridge(
  apiKey: string,
  options: BridgeProcessOptions = {},
): Promise<RunningBridge> {
  const cli = join(repoRoot, 'dist/main/cli.js');
  if (!existsSync(cli))
    throw new Error(`e2e: ${cli} is missing; build first (npm run build, or npm run test:e2e).`);
  const port = await freePort();
  const data = tempDir('studio-bridge-e2e');
  const dataDir = data.path;
  const logDir = join(repoRoot, 'test-results/e2e');
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, options.logName ?? 'bridge.log');
  const log = createWriteStream(logFile);

  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !bridgeEnvPrefixes.some((prefix) => name.startsWith(prefix)),
    ),
  );
  Object.assign(env, {
    BRIDGE_HOST: options.host ?? '127.0.0.1',
    BRIDGE_PORT: String(port),
    BRIDGE_DATA_DIR: dataDir,
    BRIDGE_API_KEY: apiKey,
    BRIDGE_SANDBOX: '1',
    // The simulated OBS writes no take files in tests unless a spec asks (DESIGN §8).
    SANDBOX_TAKE_FILES: '0',
    ...options.env,
  });
  if (options.configFile) {
    writeFileSync(join(dataDir, 'config.json'), `${JSON.stringify(options.configFile, null, 2)}\n`, {
      mode: 0o600,
    });
  }

  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  // Whatever happens to the test runner, the bridge does not outlive it.
  const killOnExit = () => child?.kill('SIGKILL');
  process.once('exit', killOnExit);

  const launch = async () => {
    const started = spawn(process.execPath, [cli, 'serve'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    started.stdout?.pipe(log, { end: false });
    started.stderr?.pipe(log, { end: false });
    try {
      await waitForHealth(url, started);
    } catch (error) {
      const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\n--- bridge log (${logFile}) ---\n${tail}`,
      );
    }
  };
  const stopProcess = async () => {
    if (child) await terminate(child);
  };
  const stop = async () => {
    process.off('exit', killOnExit);
    await stopProcess();
    log.end();
    data.remove();
  };

  try {
    await launch();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, apiKey, dataDir, logFile, stop, stopProcess, startAgain: launch };
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const outcome = await eventually(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) return 'exited';
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      if (!response.ok) throw new Error(`GET /health answered ${response.status}`);
      return 'up';
    },
    STARTUP_TIMEOUT_MS,
    200,
  ).catch((error: unknown) => error);
  if (outcome === 'exited') {
    throw new Error(`bridge exited during start-up (code ${child.exitCode ?? child.signalCode})`);
  }
  if (outcome !== 'up') {
    // eventually()'s message ends with the last problem (no answer, or the status /health answered).
    const problem = outcome instanceof Error ? outcome.message : String(outcome);
    throw new Error(
      `bridge did not answer GET ${url}/health within ${STARTUP_TIMEOUT_MS / 1000} s (${problem})`,
    );
  }
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
