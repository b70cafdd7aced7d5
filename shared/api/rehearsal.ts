import { z } from 'zod';
import { platformKeys } from '../platforms.js';
import { defineContract } from './contract.js';

/**
 * Sandbox rehearsal (DESIGN §8, issue #30.7): the Settings panel makes one simulated peer fail,
 * throttle, go offline or (the provider) refuse one platform, and puts it back. Sandbox mode only:
 * with real peers the routes answer 404.
 */
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
  tag: 'settings',
  summary:
    'Sandbox mode only: what each simulated peer is rehearsing (a failure, a throttle, offline, one refused platform) or none.',
  auth: 'key',
  response: z.object({ success: z.literal(true), peers: z.array(rehearsalState) }),
});

export const setRehearsal = defineContract({
  method: 'post',
  path: '/api/sandbox/rehearsal',
  tag: 'settings',
  summary:
    'Sandbox mode only: makes a simulated peer fail (500), throttle (429 with Retry-After 60), go offline (connections refused) or, the provider, refuse one platform; `none` puts it back.',
  auth: 'key',
  body: rehearsalRequest,
  response: z.object({ success: z.literal(true), peers: z.array(rehearsalState) }),
});
