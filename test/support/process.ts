import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_API_KEY } from './bridge.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

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
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (bridge.child.exitCode !== null) throw new Error(`bridge exited: ${bridge.output().stderr}`);
    try {
      const response = await fetch(`${bridge.url}/health`);
      if (response.ok) return bridge;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      bridge.child.kill('SIGKILL');
      throw new Error(`bridge did not start: ${bridge.output().stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
