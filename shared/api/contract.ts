import { z } from 'zod';
import { CONTROL, DIGIT, SPACE, SURROGATE } from '../portable-pattern.js';
import { dateBoundIssue, dayBoundIssue, EARLIEST_DATE, MAX_YEARS_AHEAD } from '../time-bounds.js';

/**
 * One contract object per route: the bridge validates with it, the dashboard types its calls
 * with it, and /openapi.json is generated from it. Keep every route's shape here, in shared/.
 */
export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** key: bridge API key required. none: public. webhook: CRM signature or bridge key (DESIGN §4). */
export type RouteAuth = 'key' | 'none' | 'webhook';

export interface RouteContract<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Express-style path, e.g. `/streamhost/status/:broadcastId`. */
  path: string;
  /** One line: what the operation does (the OpenAPI `summary`). */
  summary: string;
  /**
   * The OpenAPI `operationId`, when the one derived from method and path (main/http/openapi.ts,
   * `operationIdOf`: `get /api/jobs/:id` → `getJobsById`) should not be used. Client generators name
   * their functions after it: once published it stays.
   */
  operationId?: string;
  tag: string;
  auth: RouteAuth;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** The media type of the 200 answer when it is not JSON (GET /events: `text/event-stream`). */
  responseType?: string;
  /**
   * Answers besides the 200 and the error envelope, by status, as /openapi.json states them
   * (a webhook's 202 `{queued:true}` and its batch 500 `{success:false, results}`).
   */
  otherResponses?: Record<number, { description: string; schema: z.ZodType }>;
}

export function defineContract<
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodType,
>(contract: RouteContract<P, Q, B, R>): RouteContract<P, Q, B, R> {
  return contract;
}

export type ResponseOf<C> =
  C extends RouteContract<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;
export type BodyOf<C> =
  C extends RouteContract<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.input<B> : never;

/** The peers whose failures a route may pass on. */
export const peerNames = ['crm', 'postsvc', 'gateway', 'automation', 'obs'] as const;

/**
 * Why a peer failed a request, told apart because each asks something else of the operator:
 * start it or check its address (`unreachable`), wait (`throttled`), check its key
 * (`refused-key`), look at the peer (`failing`, `no-answer`, `unreadable`), or change what was
 * sent (`refused`).
 */
export const peerFailureCauses = [
  'unreachable',
  'no-answer',
  'throttled',
  'refused-key',
  'refused',
  'failing',
  'unreadable',
] as const;

export const peerFailure = z.object({
  name: z.enum(peerNames),
  cause: z.enum(peerFailureCauses),
  /** The peer's HTTP status, when it answered. */
  status: z.number().int().optional(),
  /** Seconds the peer asked to wait (Retry-After). */
  retryAfterS: z.number().optional(),
});
export type PeerFailure = z.infer<typeof peerFailure>;

/**
 * Failure envelope (DESIGN §4): `{success:false, error, code?, details?}`, and `peer` when a peer's
 * failure is the reason (issue #30: the dashboard says what happened in words).
 */
export const errorEnvelope = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
  peer: peerFailure.optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Error codes the bridge answers with (spec §7 plus the HTTP-level ones of DESIGN §4). */
export const errorCodes = [
  'VALIDATION_ERROR',
  'INVALID_DATE',
  'INVALID_ENCODING',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMIT',
  'QUOTA_EXCEEDED',
  'TOO_MANY_CONNECTIONS',
  /** A body not yet verified that came too slowly or not in time (issue #35.4): 408, which EspoCRM retries. */
  'REQUEST_TIMEOUT',
  /** A byte range of a file that starts past its end: 416 with Content-Range. */
  'RANGE_NOT_SATISFIABLE',
  'CONFLICT',
  /** A cancel met a post already live on a platform: nothing was deleted (DESIGN §6.9). */
  'ALREADY_PUBLISHED',
  'AUTH_ERROR',
  'INVALID_MEDIA',
  'PLATFORM_ERROR',
  'DB_ERROR',
  'STORAGE_FULL',
  'COLLECTION_FAILED',
  'STREAMHOST_ERROR',
  'CHANNEL_NOT_FOUND',
  'RTMP_INVALID',
  'AUTH_EXPIRED',
  'END_NOT_SUPPORTED',
  'CRM_ERROR',
  'AUTOMATION_ERROR',
  'NOT_CONFIGURED',
  'ANALYSIS_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** Query strings arrive as text: a number field accepts "10". */
export const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * The code a date field's zod issues carry (`params`): http/ answers them 400 INVALID_DATE, naming
 * the field and the bound (DESIGN §4, issue #25.1), where other issues are VALIDATION_ERROR.
 */
export const DATE_ISSUE_PARAMS = { code: 'INVALID_DATE' } as const;

type DateCheck = (value: string, now: Date) => { problem: string } | null;

/**
 * A date read from a request: its bounds first (2000-01-01 to 5 years after the bridge's clock,
 * shared/time-bounds.ts), so `+275760-09-13T00:00:00Z`, a date JavaScript can hold but no
 * arithmetic near it can, is refused as out of range before anything computes with it; then its
 * format. `description` says the bounds in /openapi.json, where JSON Schema has no keyword for them.
 */
function dateField(format: DateCheck, bounds: DateCheck, meta: { format: string; pattern: string }) {
  return z
    .string()
    .superRefine(dateRefinement((value, now) => bounds(value, now) ?? format(value, now)))
    .meta({
      ...meta,
      description: `from ${EARLIEST_DATE} to ${MAX_YEARS_AHEAD} years ahead (400 INVALID_DATE otherwise)`,
    });
}

function dateRefinement(check: DateCheck) {
  return (value: string, ctx: z.RefinementCtx) => {
    const issue = check(value, new Date());
    if (issue) ctx.addIssue({ code: 'custom', message: issue.problem, params: DATE_ISSUE_PARAMS });
  };
}

/**
 * A date-time whose format a later rule judges (the posting rules name it), bounded here: a
 * route that looks its record up before those rules run must not carry such a date that far.
 */
export const boundedDateTimeText = z
  .string()
  .superRefine(dateRefinement((value, now) => dateBoundIssue('', value, now)));

/** `YYYY-MM-DD` that is a real calendar date (2026-02-30 is refused), within the bounds. */
export const calendarDate = dateField(
  (value) => {
    if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value)) return { problem: `"${value}" must be YYYY-MM-DD` };
    const date = new Date(`${value}T00:00:00Z`);
    const real = !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
    return real ? null : { problem: `"${value}" is not a real calendar date` };
  },
  (value, now) => dayBoundIssue('', value, now),
  { format: 'date', pattern: `^[${DIGIT}]{4}-[${DIGIT}]{2}-[${DIGIT}]{2}$` },
);

const zodDateTime = z.iso.datetime({ offset: true });

/**
 * ISO 8601 date-time with an offset or Z, within the bounds. Published with zod's own pattern (it
 * refuses 2026-02-30 too), its `\d` spelled `[0-9]` (shared/portable-pattern.ts): the same digits
 * in JavaScript.
 */
export const isoDateTime = dateField(
  (value) =>
    zodDateTime.safeParse(value).success
      ? null
      : {
          problem: `"${value}" is not an ISO 8601 date-time with Z or an offset (e.g. 2026-07-08T12:30:00Z)`,
        },
  (value, now) => dateBoundIssue('', value, now),
  {
    format: 'date-time',
    pattern: zodDateTime._zod.def.pattern!.source.replaceAll(String.raw`\d`, `[${DIGIT}]`),
  },
);

/** Ids are at most this many characters (Unicode code points) wherever the API takes one. */
export const ID_MAX_CHARS = 64;
/**
 * For /openapi.json, on a string the bridge trims before `min(1)`: the rule JSON Schema states with
 * `minLength` alone lets a string of spaces through, which the bridge then refuses as empty.
 */
export const NOT_BLANK = { pattern: `[^${SPACE}]` } as const;
/** The same as a zod `.regex` (which publishes its source): `/\S/`, portably spelled. */
export const NOT_BLANK_TEXT = new RegExp(NOT_BLANK.pattern);
/** Line ends, which `.` does not match: `.` or one of them is any character, without overlap (no backtracking blow-up). */
const LINE_END = String.raw`\u000a\u000d\u2028\u2029`;
/**
 * Two characters other than spaces, anywhere: a text at least 2 long once trimmed, portably spelled.
 * A query checked with it before it is trimmed says in /openapi.json what the bridge refuses.
 */
export const TWO_NOT_SPACES = new RegExp(`[^${SPACE}](?:.|[${LINE_END}])*[^${SPACE}]`);

/** C0 controls, DEL and C1 controls. */
const CONTROL_CHAR = /\p{Cc}/u;
/** Half of a surrogate pair standing alone: with /u a lone surrogate is its own code point. */
export const LONE_SURROGATE = /\p{Cs}/u;
const idChar = `[^${CONTROL}${SURROGATE}]`;
const idEdgeChar = `[^${CONTROL}${SURROGATE}${SPACE}]`;
const idEdgeNotDot = `[^${CONTROL}${SURROGATE}${SPACE}.]`;
/**
 * The id rule as a portable pattern (no look-ahead): "." and ".." are left out by spelling out
 * the one- and two-character ids that are not them.
 */
const idPattern = [
  idEdgeNotDot,
  `${idEdgeNotDot}${idEdgeChar}`,
  `\\.${idEdgeNotDot}`,
  `${idEdgeChar}${idChar}{1,${ID_MAX_CHARS - 2}}${idEdgeChar}`,
].join('|');

/**
 * Every id the API takes, in params, query and body (CRM record ids, provider post ids, host
 * broadcast ids, webhook item ids): 1–64 characters, no control characters, well-formed UTF-16,
 * no space at either end, not `.` or `..`. Ids go on into URLs and headers of the peers: a 100,000-character id
 * reached the CRM and came back 431 (issue #12.7). The same rule, as a JSON Schema pattern, is
 * in /openapi.json (read with the /u flag, as ECMA-262 patterns of OpenAPI are; it counts code
 * points as `maxLength` does).
 */
export const idString = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string (an id)') })
  .min(1, 'must not be empty')
  .superRefine((value, ctx) => {
    const length = [...value].length;
    if (length > ID_MAX_CHARS) {
      ctx.addIssue({ code: 'custom', message: `is ${length} characters long, at most ${ID_MAX_CHARS}` });
    }
    if (CONTROL_CHAR.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must not contain control characters' });
    }
    if (LONE_SURROGATE.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'contains an unpaired surrogate (not valid Unicode text)' });
    }
    if (value !== '' && /^\s|\s$/u.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must not start or end with a space' });
    }
    // In a peer's URL path `/ContentProduction/..` is another resource (dot segments).
    if (value === '.' || value === '..') ctx.addIssue({ code: 'custom', message: 'must not be "." or ".."' });
  })
  .meta({
    minLength: 1,
    maxLength: ID_MAX_CHARS,
    pattern: `^(?:${idPattern})$`,
  });
