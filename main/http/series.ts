import type { RequestHandler } from 'express';

/**
 * Middlewares run one after another as one. Express's router spends a layer on each, on every
 * request (a path match, closures for its parameters, a promise check): the webhook path ran
 * a dozen, three times what a bare handler runs. Within the series the contract is the
 * router's: `next()` goes on, `next(error)` skips the rest and hands the error on, and so does a
 * throw or a rejected promise. `next('route')` and `next('router')` mean nothing here.
 */
export function series(...handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error || index === handlers.length) {
        done(error);
        return;
      }
      const handler = handlers[index++]!;
      try {
        const result: unknown = handler(req, res, next);
        if (result instanceof Promise) {
          result.catch((rejected: unknown) => next(rejected || new Error('Rejected promise')));
        }
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}
