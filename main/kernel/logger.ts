import path from 'node:path';
import { pino, type Logger } from 'pino';
import { LogFile } from './log-file.js';
import { redactSecrets } from './secret-redaction.js';
import { ensurePrivateDir, ensurePrivateFile } from './private-files.js';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** LOG_LEVEL from the environment; info when unset or not a level. */
export function logLevelFrom(env: NodeJS.ProcessEnv): LogLevel {
  const wanted = env.LOG_LEVEL?.trim().toLowerCase();
  return logLevels.find((level) => level === wanted) ?? 'info';
}

/**
 * The terminal that started the bridge gets its few start-up lines, not a JSON line per request:
 * the log goes to stdout only when someone asked for detail (LOG_LEVEL=debug or trace).
 */
export const logsToStdout = (level: LogLevel): boolean => level === 'debug' || level === 'trace';

export interface BridgeLogger {
  logger: Logger;
  /** The log file's writer (null when the level is silent): what it dropped, flushed at stop. */
  file: LogFile | null;
}

/**
 * JSON lines to `<dataDir>/logs/bridge.log`, and to stdout when `stdout`. Headers that carry
 * secrets are redacted wherever they appear; request bodies are never logged. The file is
 * written by LogFile, which drops lines rather than wait for a full disk (DESIGN §7).
 */
export function createLogger(options: {
  dataDir: string;
  level: LogLevel;
  stdout: boolean;
  /** Tests only: the log written here instead of the data dir's (a full disk: /dev/full). */
  testLogFile?: string;
}): BridgeLogger {
  const streams: pino.StreamEntry[] = [];
  if (options.stdout)
    streams.push({ level: options.level === 'silent' ? 'fatal' : options.level, stream: process.stdout });
  let file: LogFile | null = null;
  if (options.level !== 'silent') {
    file = new LogFile(options.testLogFile ?? privateLogFile(options.dataDir));
    streams.push({ level: options.level, stream: file });
  }
  const logger = pino(
    {
      level: options.level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'req.headers.signature',
          'req.headers["x-signature"]',
          '*.apiKey',
          '*.password',
          '*.streamKey',
        ],
        censor: '[redacted]',
      },
      // Secrets by name and by value anywhere in a line's fields (DESIGN §7), beyond the paths above.
      formatters: { log: (fields) => redactSecrets(fields) },
    },
    pino.multistream(streams),
  );
  return { logger, file };
}

/** `<dataDir>/logs/bridge.log`, a 0600 file in a 0700 folder, neither a link (DESIGN §7, issue #35.5). */
function privateLogFile(dataDir: string): string {
  const logDir = path.join(dataDir, 'logs');
  const logPath = path.join(logDir, 'bridge.log');
  ensurePrivateDir(logDir);
  ensurePrivateFile(logPath);
  return logPath;
}
