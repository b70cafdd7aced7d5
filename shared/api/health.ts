import { z } from 'zod';
import { defineContract, peerNames, type PeerFailure } from './contract.js';

/** The peers /health reports on: the same names as the error envelope's `peer.name` (obs: the recorder's OBS). */
export { peerNames };
export type PeerName = (typeof peerNames)[number];

/**
 * A peer's state in one word (issue #38.3), the same on every screen: it answers (`reachable`), it
 * asked the bridge to wait (`throttled`, until `until`), it answers with errors or garbage
 * (`failing`), it cannot be reached or did not answer (`unreachable`), it refused the bridge's key or
 * OBS its password, or the saved key belongs to another origin (`refused-key`).
 */
export const peerStates = ['reachable', 'throttled', 'failing', 'unreachable', 'refused-key'] as const;
export type PeerState = (typeof peerStates)[number];

/** The one mapping from why a peer failed a request (the error envelope's `peer.cause`) to its state. */
const stateOfCause: Record<PeerFailure['cause'], PeerState> = {
  unreachable: 'unreachable',
  'no-answer': 'unreachable',
  throttled: 'throttled',
  'refused-key': 'refused-key',
  refused: 'failing',
  failing: 'failing',
  unreadable: 'failing',
};
export const peerStateOf = (cause: PeerFailure['cause']): PeerState => stateOfCause[cause];

export const peerHealth = z.object({
  configured: z.boolean(),
  /** null: not configured, or not checked yet. */
  state: z.enum(peerStates).nullable(),
  /** While throttled: when the peer said it may be asked again (its Retry-After); null otherwise or when it did not say. */
  until: z.string().nullable(),
  /** Kept for integrators: `state === 'reachable'` (null while `state` is). */
  reachable: z.boolean().nullable(),
  /**
   * How long the peer took to answer the last time it answered (an error or a 429 is an answer);
   * null while it is unreachable: a connection refused or a timeout measures nothing of the peer.
   */
  latencyMs: z.number().nullable(),
  /** When the state was last read (a request or a probe). */
  checkedAt: z.string().nullable(),
  /**
   * The last failure in the peer's or the bridge's words (OBS's own for a refused password). It
   * is past, not the state, when `lastErrorAt` is older than `checkedAt` and `state` is reachable.
   */
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  url: z.string().nullable(),
  /**
   * The origin the peer's saved key belongs to, when `url` is elsewhere (the environment points the
   * peer away): the bridge sends it nothing and `lastError` says "refused key: key saved for <origin>".
   * Null otherwise.
   */
  refusedKeyFor: z.string().nullable(),
});
export type PeerHealth = z.infer<typeof peerHealth>;

/** The last CRM catch-up (DESIGN §6.9): when, what it saw and did, and what went wrong. */
export const catchUpStatus = z.object({
  /** When it finished. */
  at: z.string(),
  status: z.enum(['ok', 'failed']),
  /** 1, or the try after that many failed runs in a row (retried with §6.2's backoff). */
  attempt: z.number().int(),
  /** Changed records listed. */
  seen: z.number().int(),
  /** Records whose handling did something (posted, cancelled, published, started a workflow). */
  actedOn: z.number().int(),
  errors: z.number().int(),
  /** Handling still running when the run reported. */
  queued: z.number().int(),
  error: z.string().nullable(),
  /** When a failed run is tried again (§6.2's transient backoff); null after a good run. */
  retryAt: z.string().nullable(),
  /** A catch-up is running now (its figures come when it finishes). */
  running: z.boolean(),
  /** Posts that still go out although their CRM records vanished (a mass disappearance: nothing cancelled). */
  alarm: z.array(z.string()),
  lastOkAt: z.string().nullable(),
});
export type CatchUpStatus = z.infer<typeof catchUpStatus>;

/** Overdue work that must not stay silent (DESIGN §6.9). */
export const alarmKinds = ['job', 'publish', 'post', 'collection'] as const;
export const alarm = z.object({
  /** Stable while the same thing is overdue (e.g. `job:12`): the dashboard notifies once per id. */
  id: z.string(),
  kind: z.enum(alarmKinds),
  /** One line for the operator, naming what is overdue and since when. */
  message: z.string(),
  /** When it was due. */
  since: z.string(),
});
export type Alarm = z.infer<typeof alarm>;

export const healthResponse = z.object({
  success: z.literal(true),
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeS: z.number(),
  // The rest is only present when the caller sent the bridge key.
  /** Why the status is degraded, one line each (peers not reachable, a full disk, a failed catch-up, then alarms); empty when ok. */
  reasons: z.array(z.string()).optional(),
  alarms: z.array(alarm).optional(),
  sandbox: z.boolean().optional(),
  peers: z.record(z.enum(peerNames), peerHealth).optional(),
  jobs: z.object({ pending: z.number(), running: z.number(), failed: z.number() }).optional(),
  lastCollection: z
    .object({ id: z.number(), status: z.string(), startedAt: z.string(), finishedAt: z.string().nullable() })
    .nullable()
    .optional(),
  quota: z
    .object({ plan: z.string(), limit: z.number(), used: z.number(), left: z.number(), resetsAt: z.string() })
    .nullable()
    .optional(),
  /** null: no catch-up has run (none configured, or not yet). */
  lastCatchUp: catchUpStatus.nullable().optional(),
});
export type HealthResponse = z.infer<typeof healthResponse>;

export const getHealth = defineContract({
  method: 'get',
  path: '/health',
  tag: 'operational',
  summary:
    "Liveness: status degraded when a configured peer (the recorder's OBS included) is not reachable (throttled, failing, unreachable, or its key refused), the disk is full, the last CRM catch-up failed, or something is overdue (a job or publish by more than 2 min, a post unconfirmed 10 min after its time, a collection older than twice its interval). With the bridge key also the reasons and alarms (they name posts and guests: never without the key), peers, job queue, last collection, quota and last CRM catch-up.",
  auth: 'none',
  response: healthResponse,
});

export const getOpenApi = defineContract({
  method: 'get',
  path: '/openapi.json',
  tag: 'operational',
  summary: 'This API as OpenAPI 3.0, generated from the route contracts.',
  auth: 'key',
  response: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }),
});

export const retryJob = defineContract({
  method: 'post',
  path: '/api/jobs/:id/retry',
  tag: 'operational',
  summary: 'Run a failed job again now (the operator has fixed the cause).',
  auth: 'key',
  params: z.object({ id: z.coerce.number().int().positive() }),
  response: z.object({ success: z.literal(true), id: z.number() }),
});
