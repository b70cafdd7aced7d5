/**
 * The headless CLI (main/cli.ts) with start options only tests have, which no environment variable
 * may set: a log on /dev/full (a full disk) reaches a real CLI process through its first argument.
 */
import { runCli } from '../../main/cli.js';

export interface CliTestOptions {
  /** The log written here instead of `<dataDir>/logs/bridge.log`. */
  testLogFile?: string;
}

const [json = '{}', ...args] = process.argv.slice(2);
const { testLogFile } = JSON.parse(json) as CliTestOptions;
process.exit(await runCli(args, testLogFile === undefined ? {} : { tuning: { storage: { testLogFile } } }));
