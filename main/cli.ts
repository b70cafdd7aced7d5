import { pathToFileURL } from 'node:url';
import { startBridge, type RunningBridge, type StartBridgeOptions } from './app.js';
import { ConfigError } from './config/config.js';
import { DataDirInUseError } from './kernel/data-dir-lock.js';
import { DatabaseTooNewError } from './kernel/db.js';
import { DataDirEntryError } from './kernel/private-files.js';
import { startOutput } from './start-output.js';

const USAGE = 'usage: studio-bridge serve   (configuration: environment variables, see README)';

/**
 * Headless entry. Exit codes: 0 stopped cleanly, 1 could not start (e.g. port in use, or the
 * data dir is in use by another bridge: one line naming it), 2 invalid configuration (one line
 * per bad key on stderr), a database from a newer release or a link (or another foreign entry) in
 * the data dir (one line saying what to do), 64 bad usage. `options`: tests only.
 */
export async function runCli(argv: string[], options: Omit<StartBridgeOptions, 'env'> = {}): Promise<number> {
  const command = argv[0] ?? 'serve';
  if (command !== 'serve') {
    process.stderr.write(`${USAGE}\n`);
    return 64;
  }
  let bridge: RunningBridge;
  try {
    bridge = await startBridge(options);
  } catch (error) {
    if (error instanceof ConfigError) {
      // One bad key: one line; several: a heading and one line per key.
      const [only, ...more] = error.issues;
      process.stderr.write(
        more.length === 0 && only !== undefined
          ? `studio-bridge: invalid configuration: ${only}\n`
          : `studio-bridge: invalid configuration\n${error.issues.join('\n')}\n`,
      );
      return 2;
    }
    if (error instanceof DatabaseTooNewError || error instanceof DataDirEntryError) {
      process.stderr.write(`studio-bridge: ${error.message}\n`);
      return 2;
    }
    if (error instanceof DataDirInUseError) {
      process.stderr.write(`studio-bridge: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(
      `studio-bridge: could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  process.stdout.write(startOutput(bridge, process.stdout.isTTY === true));
  return new Promise<number>((resolve) => {
    let signals = 0;
    const shutdown = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) {
        process.stderr.write(`studio-bridge: ${signal} again, exiting now\n`);
        process.exit(1);
      }
      process.stdout.write(`studio-bridge: ${signal}, finishing in-flight requests...\n`);
      bridge.stop().then(
        () => resolve(0),
        (error: unknown) => {
          process.stderr.write(`studio-bridge: error while stopping: ${String(error)}\n`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
