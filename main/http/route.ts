import type { Request, RequestHandler, Response, Router } from 'express';
import { FileReply, type Caller, type Reply, type RouteHandler, type RouteInput } from '../areas/area.js';
import { jsonBody, type RawBodyRequest, type UnverifiedReading } from './body.js';
import { firstByteEpochMs } from './first-byte.js';
import { series } from './series.js';
import type { RouteGuard } from './guards.js';
import type { z } from 'zod';
import { DATE_ISSUE_PARAMS, type RouteContract } from '../../shared/api/contract.js';
import { AppError } from '../kernel/app-error.js';
import { describeZodIssues, zodDetails } from './send-error.js';
import { sendFileReply } from './send-file.js';
import { findQueryEncodingFault } from './utf8-field.js';

/** Every contract registered, in order: /openapi.json and the auth walk test read this. */
export const registeredContracts: RouteContract[] = [];

type Parsed<T> = [NonNullable<T>] extends [z.ZodType] ? z.output<NonNullable<T>> : undefined;
type Output<C extends RouteContract> = z.input<C['response']>;

function parsePart<S extends z.ZodType | undefined>(schema: S, value: unknown, where: string): Parsed<S> {
  if (!schema) return undefined as Parsed<S>;
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues;
    // Dates out of bounds or malformed (contract.ts dateField): INVALID_DATE, named as the posting
    // rules name them ("scheduledAt: … is before 2000-01-01"); any other issue is in the details.
    const dates = issues.filter(isDateIssue);
    if (dates.length > 0) {
      throw new AppError('validation', 'INVALID_DATE', describeZodIssues(dates), {
        details: zodDetails(issues, where),
      });
    }
    throw AppError.validation(
      describeZodIssues(result.error.issues, where),
      zodDetails(result.error.issues, where),
    );
  }
  return result.data as Parsed<S>;
}

/** req.query, once its raw text is known to be UTF-8 (DESIGN §4: never replaced silently). */
function utf8Query(req: Request): unknown {
  const search = req.url.indexOf('?');
  const field = search < 0 ? null : findQueryEncodingFault(req.url.slice(search + 1));
  if (field) {
    throw new AppError(
      'validation',
      'INVALID_ENCODING',
      `${field}: %-escapes that are not UTF-8; send text as UTF-8`,
    );
  }
  return req.query;
}

function isDateIssue(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'custom' && issue.params?.code === DATE_ISSUE_PARAMS.code;
}

function isReply<T>(value: unknown): value is Reply<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    'body' in value &&
    !('success' in value)
  );
}

/** What a route does with its parsed input: an area's handler answered (`answerWith`), or http/'s own stream. */
export type RouteAnswer<C extends RouteContract> = (
  input: RouteInput<C>,
  req: Request,
  res: Response,
) => Promise<void> | void;

/**
 * Mounts one contract: its guard (before the body is read), the body (read, verified, parsed:
 * body.ts), then params, query and body parsed with its zod schemas before any work (handlers
 * never see `req.body` unparsed), then its answer.
 */
export function mountRoute<C extends RouteContract>(
  router: Router,
  contract: C,
  answer: RouteAnswer<C>,
  identify: (req: Request) => Caller,
  unverified: UnverifiedReading,
  guard?: RouteGuard,
): void {
  if (!registeredContracts.includes(contract)) registeredContracts.push(contract);
  const beforeBody = guard ? [guard.beforeBody] : [];
  const body = jsonBody(contract.path, unverified, guard?.bodyCheck);
  // The route's steps as one router layer (series.ts): the router's work per layer was a cost of its own.
  const handle: RequestHandler = async (req, res, next) => {
    try {
      let signal: AbortSignal | undefined;
      const input = {
        // req.query is parsed from the URL when first read: not at all for a route without a query.
        params: contract.params ? parsePart(contract.params, req.params, 'params') : undefined,
        query: contract.query ? parsePart(contract.query, utf8Query(req), 'query') : undefined,
        body: contract.body ? parsePart(contract.body, req.body, 'body') : undefined,
        // Asked by few routes (GET /health): the key is not looked for on the others.
        get caller() {
          return identify(req);
        },
        get receivedAt() {
          return firstByteEpochMs(req);
        },
        rawBody: (req as RawBodyRequest).rawBody,
        signedBy: (req as RawBodyRequest).signedBy ?? null,
        get signal() {
          return (signal ??= clientGone(res));
        },
      } as RouteInput<C>;
      await answer(input, req, res);
    } catch (error) {
      next(error);
    }
  };
  router[contract.method](contract.path, series(...beforeBody, body, handle));
}

/** An area's handler: what it returns is sent as JSON, as a reply with its status, or as a file. */
export function answerWith<C extends RouteContract>(handler: RouteHandler<C>): RouteAnswer<C> {
  return async (input, req, res) => {
    const result = await handler(input);
    if (result instanceof FileReply) {
      await sendFileReply(req, res, result);
    } else if (isReply<Output<C>>(result)) {
      if (result.headers) res.set(result.headers);
      sendJson(req, res, result.status, result.body);
    } else {
      sendJson(req, res, 200, result);
    }
  };
}

/** Aborted when the connection closes before the answer is sent: the client went away. */
function clientGone(res: Response): AbortSignal {
  const gone = new AbortController();
  if (res.closed && !res.writableEnded) gone.abort();
  else
    res.once('close', () => {
      if (!res.writableEnded) gone.abort();
    });
  return gone.signal;
}

/**
 * A JSON answer. A read (GET, HEAD) goes through res.json, for its ETag and the 304 it allows; an
 * answer to a write is never revalidated, so it is written as it is, without a hash of the body
 * for an ETag (the webhook path's answers are all writes').
 */
function sendJson(req: Request, res: Response, status: number, body: unknown): void {
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.status(status).json(body);
    return;
  }
  const text = JSON.stringify(body) ?? '';
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
