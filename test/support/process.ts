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

/** The headless CLI (`main/cli.ts serve`) as a real child process, for kill -9 and signal tests. */
export function runCli(
  env: Record<string, string>,
  args: string[] = ['serve'],
): BridgeProcess & { port: number | null } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'main/cli.ts'), ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      BRIDGE_API_KEY: TEST_API_KEY,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const port = env.BRIDGE_PORT ? Number(env.BRIDGE_PORT) : null;
  return { url: `http://127.0.0.1:${port}`, port, child, output: () => ({ stdout, stderr }), exited };
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
