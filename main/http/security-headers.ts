import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      connectSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      scriptSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      // The bridge serves plain http on the LAN: upgrading would send the dashboard's own
      // scripts to https://<server-ip>, where nothing listens.
      upgradeInsecureRequests: null,
    },
  },
  // TLS, where there is any, ends at the tunnel or proxy in front: HSTS is theirs to send.
  strictTransportSecurity: false,
  crossOriginResourcePolicy: false,
};

/**
 * helmet's headers, worked out once. With these options they do not depend on the request (no
 * CSP nonces), so running helmet's dozen middlewares on every request only re-derived the same
 * strings; here they are captured from one run against a stand-in response and set as a list.
 */
export function securityHeaders(): RequestHandler {
  const headers: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const standIn = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers.push([name, value]);
      return standIn;
    },
    removeHeader: (name: string) => removed.push(name),
  };
  let synchronous = false;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, standIn as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    synchronous = true;
  });
  if (!synchronous) throw new Error('helmet did not finish synchronously: its headers cannot be precomputed');
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
