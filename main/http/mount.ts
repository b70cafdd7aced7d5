import type { RequestHandler, Router } from 'express';
import type { RouteAuth, RouteContract } from '../../shared/api/contract.js';
import { mountRoute, type RouteHandler } from './route.js';

export type Guards = Record<Exclude<RouteAuth, 'none'>, RequestHandler>;

/** Mounts a contract behind the guard its `auth` names: auth runs before any parsing. */
export type Mount = <C extends RouteContract>(contract: C, handler: NoInfer<RouteHandler<C>>) => void;

export function createMount(router: Router, guards: Guards): Mount {
  return (contract, handler) =>
    mountRoute(router, contract, handler, contract.auth === 'none' ? undefined : guards[contract.auth]);
}
