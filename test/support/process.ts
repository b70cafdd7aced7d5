import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_API_KEY } from './bridge.js';
import type { CliTestOptions } from './cli-with-test-options.js';
import { freePort } from './ports.js';
import { eventually } from './wait.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface BridgeProcess {
  url: string;
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const cliArgs = ['--import', 'tsx', path.join(root, 'main/cli.ts')];

const cliEnv = (env: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  BRIDGE_API_KEY: TEST_API_KEY,
  ...env,
});

/** What a started process printed so far (`\r\n` read as `\n`, as a terminal writes lines), and its end. */
function watched(child: ChildProcess): Pick<BridgeProcess, 'output' | 'exited'> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { output: () => ({ stdout: stdout.replaceAll('\r\n', '\n'), stderr }), exited };
}

/**
 * The headless CLI (`main/cli.ts serve`) as a real child process, for kill -9 and signal tests.
 * With `testOptions`, through test/support/cli-with-test-options.ts.
 */
export function runCli(
  env: Record<string, string>,
  args: string[] = ['serve'],
  testOptions?: CliTestOptions,
): BridgeProcess & { port: number | null } {
  const entry = testOptions
    ? [
        '--import',
        'tsx',
        path.join(root, 'test/support/cli-with-test-options.ts'),
        JSON.stringify(testOptions),
      ]
    : cliArgs;
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: root,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = env.BRIDGE_PORT ? Number(env.BRIDGE_PORT) : null;
  return { url: `http://127.0.0.1:${port}`, port, child, ...watched(child) };
}

/** Single quotes for `sh -c`: the command `script` runs is a shell line. */
const shellQuoted = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * `serve` on a terminal, as an operator runs it by hand: util-linux `script` gives it a pty
 * (`script -qfc <command> /dev/null`) and passes on what it prints. SIGTERM to `script` reaches
 * the bridge (script ends its session), as closing the terminal would.
 */
export function runCliOnTerminal(env: Record<string, string>): BridgeProcess {
  const command = `exec ${[process.execPath, ...cliArgs, 'serve'].map(shellQuoted).join(' ')}`;
  const child = spawn('script', ['-qfc', command, '/dev/null'], {
    cwd: root,
    env: { ...cliEnv(env), SHELL: '/bin/sh' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { url: `http://127.0.0.1:${env.BRIDGE_PORT}`, child, ...watched(child) };
}

/** Starts the CLI and waits until /health answers. */
export async function spawnBridge(env: Record<string, string>): Promise<BridgeProcess> {
  const port = await freePort();
  const bridge = runCli({ BRIDGE_HOST: '127.0.0.1', BRIDGE_PORT: String(port), BRIDGE_SANDBOX: '0', ...env });
  // Up once /health answers; an early exit ends the wait at once.
  const outcome = await eventually(
    async () => {
      if (bridge.child.exitCode !== null) return 'exited';
      const response = await fetch(`${bridge.url}/health`); // throws while not listening yet
      return response.ok && 'up';
    },
    20_000,
    100,
  ).catch(() => 'timed out' as const);
  if (outcome === 'exited') throw new Error(`bridge exited: ${bridge.output().stderr}`);
  if (outcome === 'timed out') {
    bridge.child.kill('SIGKILL');
    throw new Error(`bridge did not start: ${bridge.output().stderr}`);
  }
  return bridge;
}

export interface CliOutcome {
  /** The exit code; null when the bridge started (it said where it listens) instead of exiting. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Stops a bridge that started (SIGTERM, then waits); nothing when it had exited. */
  stop: () => Promise<void>;
}

/**
 * Runs the CLI until it either exits or says where it listens: for starts that must be refused
 * (the code says how) and starts that must go through (code null; `stop` ends the bridge).
 */
export async function cliOutcome(env: Record<string, string>): Promise<CliOutcome> {
  const cli = runCli({ BRIDGE_HOST: '127.0.0.1', BRIDGE_PORT: '0', ...env });
  const started = await eventually(
    () => (cli.child.exitCode !== null ? 'exited' : cli.output().stdout.includes('Dashboard') && 'started'),
    20_000,
  ).catch((error: unknown) => {
    cli.child.kill('SIGKILL');
    throw error;
  });
  const { code } = started === 'exited' ? await cli.exited : { code: null };
  const stop = async () => {
    if (cli.child.exitCode !== null || cli.child.signalCode !== null) return;
    cli.child.kill('SIGTERM');
    await cli.exited;
  };
  return { code, ...cli.output(), stop };
}
