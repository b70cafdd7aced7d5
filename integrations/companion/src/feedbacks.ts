import type { CompanionFeedbackDefinitions } from '@companion-module/base';
import type { Arming } from './arming.js';
import { hasFailedPosts, onAir, peerNames, peersDown, type Snapshot } from './snapshot.js';

export type FeedbacksSchema = {
  on_air: { type: 'boolean'; options: Record<string, never> };
  recorder_state: { type: 'boolean'; options: { state: string } };
  recording: { type: 'boolean'; options: Record<string, never> };
  peer_down: { type: 'boolean'; options: { peer: string } };
  failed_posts: { type: 'boolean'; options: Record<string, never> };
  guest_held: { type: 'boolean'; options: Record<string, never> };
  armed: { type: 'boolean'; options: { action: string } };
};
export type FeedbackId = keyof FeedbacksSchema;

export const RED = 0xcc0000;
export const AMBER = 0xd08000;
export const GREEN = 0x008a3e;
export const WHITE = 0xffffff;
export const BLACK = 0x000000;

/** The feedbacks whose answer depends on each part of the snapshot (and on arming). */
export const feedbacksOf = {
  recorder: ['recorder_state', 'recording', 'peer_down'],
  takes: [],
  broadcasts: ['on_air'],
  posts: ['failed_posts'],
  holds: ['guest_held'],
  health: ['peer_down'],
  arming: ['armed'],
} as const satisfies Record<string, readonly FeedbackId[]>;

export function feedbackDefinitions(
  snapshot: Snapshot,
  arming: Arming,
): CompanionFeedbackDefinitions<FeedbacksSchema> {
  return {
    on_air: {
      type: 'boolean',
      name: 'ON AIR: a broadcast is live',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [],
      callback: () => onAir(snapshot) !== null,
    },
    recorder_state: {
      type: 'boolean',
      name: 'Recorder: the next filename is applied / pending / failed / held',
      defaultStyle: { bgcolor: GREEN, color: WHITE },
      options: [
        {
          type: 'dropdown',
          id: 'state',
          label: 'State',
          default: 'applied',
          choices: [
            { id: 'applied', label: 'Applied (the recorder read it back)' },
            { id: 'pending', label: 'Pending (recorder not connected)' },
            { id: 'failed', label: 'Failed (the recorder refused it)' },
            { id: 'held', label: 'Held (no recorder configured)' },
          ],
        },
      ],
      callback: ({ options }) => snapshot.recorder?.state === options.state,
    },
    recording: {
      type: 'boolean',
      name: 'Recorder: recording',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [],
      callback: () => snapshot.recorder?.recording === true,
    },
    peer_down: {
      type: 'boolean',
      name: 'A peer is down (CRM, posting provider, gateway, automation, recorder)',
      defaultStyle: { bgcolor: AMBER, color: BLACK },
      options: [
        {
          type: 'dropdown',
          id: 'peer',
          label: 'Peer',
          default: 'any',
          choices: [{ id: 'any', label: 'Any' }, ...peerNames.map((peer) => ({ id: peer, label: peer }))],
        },
      ],
      callback: ({ options }) => {
        const down = peersDown(snapshot);
        return options.peer === 'any' ? down.length > 0 : down.includes(options.peer);
      },
    },
    failed_posts: {
      type: 'boolean',
      name: 'Posts: some failed (or partly failed)',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [],
      callback: () => hasFailedPosts(snapshot),
    },
    guest_held: {
      type: 'boolean',
      name: 'Guests: a workflow is held (its email would render empty values)',
      defaultStyle: { bgcolor: AMBER, color: BLACK },
      options: [],
      callback: () => (snapshot.holds ?? 0) > 0,
    },
    armed: {
      type: 'boolean',
      name: 'Armed: a public action waits for its second press (5 s)',
      defaultStyle: { bgcolor: AMBER, color: BLACK, text: 'PRESS AGAIN' },
      options: [
        {
          type: 'dropdown',
          id: 'action',
          label: 'Action',
          default: 'any',
          choices: [
            { id: 'any', label: 'Any' },
            { id: 'post_now', label: 'Post now' },
            { id: 'end_broadcast', label: 'End broadcast' },
          ],
        },
      ],
      callback: ({ options }) =>
        options.action === 'any'
          ? arming.isArmed('post_now:') || arming.isArmed('end_broadcast:')
          : arming.isArmed(`${options.action}:`),
    },
  };
}
