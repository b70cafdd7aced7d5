import path from 'node:path';
import { pino, type Logger } from 'pino';
import { ensurePrivateDir, ensurePrivateFile } from './private-files.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * JSON lines to stdout and to `<dataDir>/logs/bridge.log`. Headers that carry secrets are
 * redacted wherever they appear; request bodies are never logged.
 */
export function createLogger(options: { dataDir: string; level: LogLevel; stdout: boolean }): Logger {
  const streams: pino.StreamEntry[] = [];
  if (options.stdout)
    streams.push({ level: options.level === 'silent' ? 'fatal' : options.level, stream: process.stdout });
  if (options.level !== 'silent') {
    const logDir = path.join(options.dataDir, 'logs');
    const logFile = path.join(logDir, 'bridge.log');
    ensurePrivateDir(logDir);
    ensurePrivateFile(logFile);
    streams.push({ level: options.level, stream: pino.destination({ dest: logFile, sync: false }) });
  }
  return pino(
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
    },
    pino.multistream(streams),
  );
}
