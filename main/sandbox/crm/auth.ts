import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Actor } from './store.js';

export interface CrmCredentials {
  apiKey: string;
  username: string;
  password: string;
}

/** The API user the REST writes are made by (what a bridge's API key belongs to). */
export const apiUser: Actor = { id: 'apiuser000000001', name: 'Studio Bridge API' };
/** A person in the CRM's UI: direct calls and demo data. */
export const uiUser: Actor = { id: 'admin00000000001', name: 'Admin' };

/**
 * EspoCRM's accepted credentials: `X-Api-Key`, Basic `user:password` (also in
 * `Espo-Authorization`), or `Authorization: Basic base64(apiKey)`. Anything else: 401,
 * empty body.
 */
export function crmAuth(credentials: CrmCredentials) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (isAuthorized(req, credentials)) {
      next();
      return;
    }
    res.status(401).set('X-Status-Reason', 'Unauthorized').end();
  };
}

function isAuthorized(req: Request, { apiKey, username, password }: CrmCredentials): boolean {
  const key = req.get('X-Api-Key');
  if (key !== undefined) return same(key, apiKey);
  const basic = /^Basic\s+(.+)$/i.exec(req.get('Authorization') ?? '')?.[1] ?? req.get('Espo-Authorization');
  if (!basic) return false;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return same(decoded, apiKey);
  const user = decoded.slice(0, colon);
  const pass = decoded.slice(colon + 1);
  return (same(user, username) && same(pass, password)) || (pass === '' && same(user, apiKey));
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
