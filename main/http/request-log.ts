import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { loggableUrl } from './loggable-url.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

declare module 'http' {
  interface IncomingMessage {
    /** The request's id: the caller's X-Request-Id when it is a plain token, else a new UUID. */
    id?: string;
  }
}

/**
 * One log line per request (id, method, URL with any key redacted, status, time), written when
 * the answer is sent or the client goes away; `/health` is not logged (probes would drown the rest).
 *
 * In place of pino-http, which built a child logger and serialisers for every request even when
 * its line was below the log level: on the webhook path that was a sixth of the bridge's time.
 * Here nothing is built unless the line will be written.
 */
export function requestLog(logger: Logger): RequestHandler {
  // The line is built below from fields that hold no secret (the URL's key is redacted by
  // loggableUrl): the logger's redaction, whose wildcard paths copy every object of every line,
  // is not needed for it.
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (req.url === '/health' || !lines.isLevelEnabled('info')) return next();
    const started = performance.now();
    // A response emits 'close' once, whether it was sent (after 'finish') or the client went away.
    res.on('close', () => {
      const responseTime = Math.round(performance.now() - started);
      const line = {
        req: { id, method: req.method, url: loggableUrl(req.originalUrl) },
        res: { statusCode: res.statusCode },
        responseTime,
      };
      if (res.writableFinished) lines.info(line, 'request completed');
      else lines.info(line, 'request closed before the answer was sent');
    });
    next();
  };
}
