import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { series } from '../../../main/http/series.js';

/** Runs a series on stand-in req/res; resolves with what it handed on (undefined: it went on). */
function run(handler: RequestHandler): Promise<{ error: unknown; log: string[] }> {
  const log: string[] = [];
  const req = { log } as unknown as Request;
  return new Promise((resolve) =>
    handler(req, {} as Response, ((error?: unknown) => resolve({ error, log })) as NextFunction),
  );
}
const step =
  (name: string): RequestHandler =>
  (req, _res, next) => {
    (req as unknown as { log: string[] }).log.push(name);
    next();
  };

describe('series (http/series.ts): middlewares as one router layer', () => {
  it('runs them in order, synchronous or not, then goes on', async () => {
    const later: RequestHandler = (req, _res, next) => {
      setTimeout(() => {
        (req as unknown as { log: string[] }).log.push('later');
        next();
      }, 1);
    };
    expect(await run(series(step('a'), later, step('b')))).toEqual({
      error: undefined,
      log: ['a', 'later', 'b'],
    });
    expect(await run(series())).toEqual({ error: undefined, log: [] });
  });

  it('an error handed on, thrown or rejected skips the rest and is handed on', async () => {
    const boom = new Error('boom');
    const handsOn: RequestHandler = (_req, _res, next) => next(boom);
    const throws: RequestHandler = () => {
      throw boom;
    };
    const rejects: RequestHandler = async () => {
      await Promise.resolve();
      throw boom;
    };
    for (const failing of [handsOn, throws, rejects]) {
      expect(await run(series(step('a'), failing, step('b')))).toEqual({ error: boom, log: ['a'] });
    }
  });

  it('an async step that went on and then settled is not run again', async () => {
    const asyncStep: RequestHandler = async (req, _res, next) => {
      (req as unknown as { log: string[] }).log.push('async');
      next();
      await Promise.resolve();
    };
    expect(await run(series(asyncStep, step('b')))).toEqual({ error: undefined, log: ['async', 'b'] });
  });
});
