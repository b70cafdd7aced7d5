import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_API_KEY } from './bridge.js';
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

/** The headless CLI (`main/cli.ts serve`) as a real child process, for kill -9 and signal tests. */
export function runCli(
  env: Record<string, string>,
  args: string[] = ['serve'],
): BridgeProcess & { port: number | null } {
  const child = spawn(process.execPath, [...cliArgs, ...args], {
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
