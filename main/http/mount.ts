import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import type { RouteAuth, RouteContract } from '../../shared/api/contract.js';
import type { Caller, Mount } from '../areas/area.js';
import { AppError } from '../kernel/app-error.js';
import type { UnverifiedReading } from './body.js';
import type { RouteGuard } from './guards.js';
import { answerWith, mountRoute, type RouteAnswer } from './route.js';

/**
 * A guard per `auth`, and `keyInQuery` for the key routes whose contract takes `?key=` in its query
 * (a browser's EventSource and <video> send no headers).
 */
export type Guards = Record<Exclude<RouteAuth, 'none'> | 'keyInQuery', RouteGuard>;

function guardOf(contract: RouteContract, guards: Guards): RouteGuard | undefined {
  if (contract.auth === 'none') return undefined;
  const takesQueryKey = contract.query instanceof z.ZodObject && 'key' in contract.query.shape;
  return contract.auth === 'key' && takesQueryKey ? guards.keyInQuery : guards[contract.auth];
}

/** http/'s own stream (GET /events): it writes to the response as long as the client reads. */
type MountStream = (contract: RouteContract, open: (req: Request, res: Response) => void) => void;

/**
 * Mounts contracts behind the guard their `auth` names: auth runs before the body is read.
 * `mount` is the areas' (handlers return what is sent); `mountStream` http/'s own stream.
 * `answerWrongMethods`, called once every route is mounted, makes a known path asked with
 * another method a 405 naming the methods it has (DESIGN §4), not a 404.
 */
export function createMount(
  router: Router,
  guards: Guards,
  identify: (req: Request) => Caller,
  unverified: UnverifiedReading,
): { mount: Mount; mountStream: MountStream; answerWrongMethods(): void } {
  const methodsByPath = new Map<string, Set<string>>();
  const add = <C extends RouteContract>(contract: C, answer: RouteAnswer<C>) => {
    const methods = methodsByPath.get(contract.path) ?? new Set<string>();
    methodsByPath.set(contract.path, methods.add(contract.method.toUpperCase()));
    mountRoute(router, contract, answer, identify, unverified, guardOf(contract, guards));
  };
  const mount: Mount = (contract, handler) => add(contract, answerWith(handler));
  const mountStream: MountStream = (contract, open) => add(contract, (_input, req, res) => open(req, res));
  const answerWrongMethods = () => {
    for (const [path, methods] of methodsByPath) router.all(path, methodNotAllowed([...methods].sort()));
  };
  return { mount, mountStream, answerWrongMethods };
}

function methodNotAllowed(methods: readonly string[]): RequestHandler {
  const allow = methods.join(', ');
  return (req, res, next) => {
    res.set('Allow', allow);
    next(
      new AppError(
        'not-found',
        'METHOD_NOT_ALLOWED',
        `${req.method} ${req.path}: this path answers ${allow} only`,
      ),
    );
  };
}
