import { z } from 'zod';
import { platformKeys } from '../platforms.js';
import { defineContract, idString } from './contract.js';

/**
 * The sandbox's routes (DESIGN §8), all under /api/sandbox/ and answered in sandbox mode only (with
 * real peers: 404): the rehearsals of the Settings panel, the simulated encoder, the runs the
 * simulated automation engine received, the simulated OBS's buttons.
 */

// ---- Rehearsal (issue #30.7): one simulated peer fails, throttles, goes offline or (the provider)
// refuses one platform, and is put back.

const platformKey = z.enum(platformKeys);

export const rehearsalPeers = ['crm', 'postsvc', 'gateway', 'automation'] as const;
export type RehearsalPeer = (typeof rehearsalPeers)[number];

export const rehearsalFaults = ['none', 'fail', 'throttle', 'offline', 'refuse-platform'] as const;
export type RehearsalFault = (typeof rehearsalFaults)[number];

export const rehearsalState = z.object({
  peer: z.enum(rehearsalPeers),
  fault: z.enum(rehearsalFaults),
  /** The platform the provider refuses (fault `refuse-platform` only). */
  platform: platformKey.nullable(),
});
export type RehearsalState = z.infer<typeof rehearsalState>;

// A union on `fault` (not a refinement) so the OpenAPI document states the rule: a generated
// "valid" request is valid (only the provider refuses a platform, and names it).
export const rehearsalRequest = z.discriminatedUnion('fault', [
  z.strictObject({
    peer: z.enum(rehearsalPeers),
    fault: z.enum(['none', 'fail', 'throttle', 'offline']),
    platform: platformKey.optional(),
  }),
  z.strictObject({
    peer: z.literal('postsvc', { error: 'only the posting provider (postsvc) refuses a platform' }),
    fault: z.literal('refuse-platform'),
    platform: z.enum(platformKeys, {
      error: `required with refuse-platform: the platform to refuse (${platformKeys.join(', ')})`,
    }),
  }),
]);
export type RehearsalRequest = z.infer<typeof rehearsalRequest>;

export const getRehearsal = defineContract({
  method: 'get',
  path: '/api/sandbox/rehearsal',
  tag: 'sandbox',
  summary:
    'Sandbox mode only: what each simulated peer is rehearsing (a failure, a throttle, offline, one refused platform) or none.',
  auth: 'key',
  response: z.object({ success: z.literal(true), peers: z.array(rehearsalState) }),
});

export const setRehearsal = defineContract({
  method: 'post',
  path: '/api/sandbox/rehearsal',
  tag: 'sandbox',
  summary:
    'Sandbox mode only: makes a simulated peer fail (500), throttle (429 with Retry-After 60), go offline (connections refused) or, the provider, refuse one platform; `none` puts it back.',
  auth: 'key',
  body: rehearsalRequest,
  response: z.object({ success: z.literal(true), peers: z.array(rehearsalState) }),
});

// ---- The simulated encoder, the automation engine's received runs, OBS's buttons.

export const startSandboxEncoder = defineContract({
  method: 'post',
  path: '/api/sandbox/encoder',
  tag: 'sandbox',
  summary:
    'Sandbox mode: start the simulated encoder of a broadcast, which the host then reports live (nothing goes live by itself). 404 NOT_FOUND outside the sandbox or for an unknown broadcast.',
  auth: 'key',
  body: z.object({ broadcastId: idString }),
  response: z.object({ success: z.literal(true), broadcastId: z.string(), status: z.string() }),
});

export const receivedAutomationRun = z.object({
  workflow: z.string(),
  body: z.unknown(),
  headers: z.record(z.string(), z.string()),
  at: z.string(),
});

export const sandboxAutomationReceived = defineContract({
  method: 'get',
  path: '/api/sandbox/automation/received',
  tag: 'sandbox',
  summary: 'Sandbox mode only: the workflow starts the simulated automation engine received, newest first.',
  auth: 'key',
  response: z.object({
    success: z.literal(true),
    workflows: z.array(z.object({ name: z.string(), active: z.boolean() })),
    received: z.array(receivedAutomationRun),
  }),
});

export const simulatedObsActions = ['start', 'stop', 'pause', 'resume', 'drop'] as const;

export const driveSimulatedObs = defineContract({
  method: 'post',
  path: '/api/sandbox/obs',
  tag: 'sandbox',
  summary:
    'Sandbox only: press a button of the simulated OBS (start, stop, pause, resume recording; drop its connections).',
  auth: 'key',
  body: z.object({ action: z.enum(simulatedObsActions) }),
  response: z.object({ success: z.literal(true), action: z.enum(simulatedObsActions) }),
});

/** Every sandbox route, for the 404s a bridge with real peers answers on them. */
export const sandboxContracts = [
  getRehearsal,
  setRehearsal,
  startSandboxEncoder,
  sandboxAutomationReceived,
  driveSimulatedObs,
] as const;
