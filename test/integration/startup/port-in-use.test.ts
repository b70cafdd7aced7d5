import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../support/process.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/*
 * Issue #24.5: a port in use printed its one clear line, then pino's exit hook flushed a log
 * destination that had not opened yet and printed a 15-line "sonic boom is not ready yet" trace.
 * The operator gets the one line and exit code 1.
 */

const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('a port in use', () => {
  it('prints one line naming the port and exits 1', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as { port: number }).port;
    const data: TempDir = tempDir('port-in-use');
    cleanup.push(data.remove);

    const cli = runCli({
      BRIDGE_HOST: '127.0.0.1',
      BRIDGE_PORT: String(port),
      BRIDGE_DATA_DIR: data.path,
      BRIDGE_SANDBOX: '0',
    });
    const exit = await cli.exited;

    expect(exit.code).toBe(1);
    const { stdout, stderr } = cli.output();
    expect(stderr.trimEnd().split('\n')).toEqual([
      `studio-bridge: could not start: listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
    ]);
    expect(stdout).toBe('');
  }, 30_000);
});
