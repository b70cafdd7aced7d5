import type { Request, RequestHandler, Router } from 'express';
import type { RouteAuth } from '../../shared/api/contract.js';
import type { Caller, Mount } from '../areas/area.js';
import { mountRoute } from './route.js';

export type Guards = Record<Exclude<RouteAuth, 'none'>, RequestHandler>;

/** Mounts a contract behind the guard its `auth` names: auth runs before any parsing. */
export function createMount(router: Router, guards: Guards, identify: (req: Request) => Caller): Mount {
  return (contract, handler) =>
    mountRoute(
      router,
      contract,
      handler,
      identify,
      contract.auth === 'none' ? undefined : guards[contract.auth],
    );
}
