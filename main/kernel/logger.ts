import { fchmodSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { pino, type Logger } from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * JSON lines to stdout and to `<dataDir>/logs/bridge.log` (owner-only: 0600, whoever made the
 * folder). Headers that carry secrets are redacted wherever they appear; request bodies are
 * never logged.
 */
export function createLogger(options: { dataDir: string; level: LogLevel; stdout: boolean }): Logger {
  const streams: pino.StreamEntry[] = [];
  if (options.stdout)
    streams.push({ level: options.level === 'silent' ? 'fatal' : options.level, stream: process.stdout });
  if (options.level !== 'silent') {
    const logDir = path.join(options.dataDir, 'logs');
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    const fd = openSync(path.join(logDir, 'bridge.log'), 'a', 0o600);
    // The mode above applies only to a new file: one left 0644 by an older version is narrowed.
    fchmodSync(fd, 0o600);
    streams.push({ level: options.level, stream: pino.destination({ dest: fd, sync: false }) });
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
