import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { apiUser, crmAuth, type CrmCredentials } from './auth.js';
import { CrmError, notFound } from './errors.js';
import { isCrmEntityName, type CrmEntityName } from './entities.js';
import { parseListParams, runList } from './query.js';
import type { CrmStore } from './store.js';

/** EspoCRM's REST API under /api/v1 (DESIGN §5.1). */
export function crmRestRouter(store: CrmStore, credentials: CrmCredentials): Router {
  const router = express.Router();
  router.use(crmAuth(credentials));
  router.use(express.json({ limit: '10mb', type: () => true }));

  router.get('/App/user', (_req, res) => {
    res.json({
      user: { id: apiUser.id, name: apiUser.name, userName: 'studio-bridge', type: 'api', isActive: true },
      acl: { table: Object.fromEntries(['ContentProduction', 'GuestBooking'].map((e) => [e, true])) },
      settings: { timeZone: 'UTC', dateFormat: 'YYYY-MM-DD', timeFormat: 'HH:mm' },
    });
  });

  router.get('/:entity', (req, res) => {
    const entity = entityParam(req);
    const params = parseListParams(entity, req.query as Record<string, unknown>);
    res.json(runList(store.rows(entity), params));
  });

  router.post('/:entity', (req, res) => {
    const entity = entityParam(req);
    rejectDuplicateGuest(store, entity, req);
    res.json(store.create(entity, req.body, apiUser));
  });

  router.get('/:entity/:id', (req, res) => {
    const entity = entityParam(req);
    const record = store.get(entity, String(req.params.id));
    if (!record) throw notFound(`${entity} ${String(req.params.id)} not found`);
    res.json(record);
  });

  const update = (req: Request, res: Response): void => {
    const entity = entityParam(req);
    res.json(store.update(entity, String(req.params.id), req.body, apiUser));
  };
  router.put('/:entity/:id', update);
  router.patch('/:entity/:id', update);

  router.delete('/:entity/:id', (req, res) => {
    store.remove(entityParam(req), String(req.params.id), apiUser);
    res.json(true);
  });

  router.use((req) => {
    throw notFound(`No route ${req.method} ${req.path}`);
  });
  router.use(crmErrorHandler);
  return router;
}

function entityParam(req: Request): CrmEntityName {
  const name = String(req.params.entity);
  if (!isCrmEntityName(name)) throw notFound(`Entity type '${name}' does not exist`);
  return name;
}

/**
 * EspoCRM's duplicate check (as for Contacts): creating a guest with the email of an
 * existing one is refused with 409 and the duplicates, unless `X-Skip-Duplicate-Check`.
 */
function rejectDuplicateGuest(store: CrmStore, entity: CrmEntityName, req: Request): void {
  if (entity !== 'GuestBooking' || req.get('X-Skip-Duplicate-Check') === 'true') return;
  const email = (req.body as { email?: unknown } | undefined)?.email;
  if (typeof email !== 'string' || email === '') return;
  const duplicates = store
    .all('GuestBooking')
    .filter((guest) => typeof guest.email === 'string' && guest.email.toLowerCase() === email.toLowerCase())
    .map((guest) => ({ id: guest.id, name: guest.name, _entityType: 'GuestBooking' }));
  if (duplicates.length > 0) throw new CrmError(409, 'Duplicate', duplicates);
}

/** Status + `X-Status-Reason`; an empty body, except the 409 duplicate list. */
export function crmErrorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  const error =
    err instanceof CrmError
      ? err
      : isBodyParseError(err)
        ? new CrmError(400, 'Bad request: the body is not valid JSON')
        : new CrmError(500, 'Internal error');
  if (error.status === 500) console.error('[sandbox crm]', err);
  res.status(error.status).set('X-Status-Reason', headerSafe(error.reason));
  if (error.body === undefined) res.end();
  else res.json(error.body);
}

function isBodyParseError(err: unknown): boolean {
  return (
    typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'entity.parse.failed'
  );
}

/** Header values must be Latin-1 on one line; reasons can quote user input. */
function headerSafe(reason: string): string {
  return reason.replace(/[^\x20-\x7e]/g, '?').slice(0, 500);
}
