import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import type { TimerSet } from './timers.js';

/**
 * A fault applies to the next `times` requests that match `method` and `pathPrefix`
 * (both optional). What it does:
 * - `status` (+ `body`, `headers`): answer that instead; the request does nothing.
 * - `hang`: the request is handled (the work happens, e.g. the post is created) but no
 *   answer is ever sent: the caller sees a timeout with an unknown outcome.
 * - `delayMs`: the request waits that long, then is handled (or answered with `status`).
 * - `headers` alone: added to the normal answer.
 * `/__sandbox/*` control routes are never faulted.
 */
export const faultSpec = z.strictObject({
  method: z.string().min(1).optional(),
  pathPrefix: z.string().startsWith('/').optional(),
  status: z.number().int().min(100).max(599).optional(),
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  delayMs: z.number().int().min(0).max(600_000).optional(),
  hang: z.boolean().optional(),
  times: z.number().int().min(1),
});
export type FaultSpec = z.infer<typeof faultSpec>;

export interface ActiveFault extends FaultSpec {
  id: string;
  /** How many more requests this fault will catch. */
  remaining: number;
}

/** The `faults` control every simulated peer exposes. */
export interface FaultControl {
  injectFault(spec: FaultSpec): string;
  clearFaults(): void;
  activeFaults(): ActiveFault[];
  /** true: the port stops accepting connections (ECONNREFUSED); false: it listens again. */
  refuseConnections(on: boolean): Promise<void>;
}

export class FaultController {
  readonly #faults: ActiveFault[] = [];
  #nextId = 1;

  constructor(private readonly timers: TimerSet) {}

  inject(spec: FaultSpec): string {
    const parsed = faultSpec.parse(spec);
    const id = `fault-${this.#nextId++}`;
    this.#faults.push({ ...parsed, id, remaining: parsed.times });
    return id;
  }

  clear(): void {
    this.#faults.length = 0;
  }

  list(): ActiveFault[] {
    return this.#faults.map((fault) => ({ ...fault }));
  }

  /** Takes one use of the first matching fault, if any. */
  take(method: string, path: string): ActiveFault | undefined {
    const index = this.#faults.findIndex(
      (fault) =>
        (fault.method === undefined || fault.method.toUpperCase() === method.toUpperCase()) &&
        (fault.pathPrefix === undefined || path.startsWith(fault.pathPrefix)),
    );
    if (index < 0) return undefined;
    const fault = this.#faults[index] as ActiveFault;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.splice(index, 1);
    return fault;
  }

  middleware(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      if (req.path.startsWith('/__sandbox')) return next();
      const fault = this.take(req.method, req.path);
      if (!fault) return next();
      if (fault.headers) res.set(fault.headers);
      const act = (): void => {
        if (fault.status !== undefined) {
          answer(res, fault.status, fault.body);
          return;
        }
        if (fault.hang) swallowResponse(res);
        next();
      };
      if (fault.delayMs) this.timers.set(act, fault.delayMs);
      else act();
    };
  }
}

function answer(res: Response, status: number, body: unknown): void {
  res.status(status);
  if (body === undefined || body === null) res.end();
  else if (typeof body === 'string') res.type('text/plain').send(body);
  else res.json(body);
}

/** The handler still runs and does its work; whatever it answers never leaves the process. */
function swallowResponse(res: Response): void {
  const ignore = (() => res) as unknown;
  res.writeHead = ignore as Response['writeHead'];
  res.write = (() => true) as unknown as Response['write'];
  res.end = ignore as Response['end'];
}
