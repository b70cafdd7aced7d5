import type { RehearsalFault, RehearsalPeer } from '../../../shared/api/rehearsal.js';

export const peerNames: Record<RehearsalPeer, string> = {
  crm: 'CRM (EspoCRM)',
  postsvc: 'Posting provider',
  gateway: 'Publishing gateway',
  automation: 'Automation engine (n8n)',
};

export const faultNames: Record<RehearsalFault, string> = {
  none: 'Working',
  fail: 'Fails (500)',
  throttle: 'Throttles (429)',
  offline: 'Offline',
  'refuse-platform': 'Refuses one platform',
};

/**
 * What the operator will then see, per peer and fault (issue #30.7): where to look, so a
 * rehearsal teaches where each failure shows up.
 */
export const whatYouSee: Record<RehearsalPeer, Partial<Record<RehearsalFault, string>>> = {
  crm: {
    fail: 'Overview and the header turn to "degraded" with the CRM unreachable within 30 s; Posts lists only the bridge\'s own posts with a note that the CRM could not be read; Guests and Broadcasts show an error with Try again; webhook work that writes back to the CRM is retried and shows in Activity as failed.',
    throttle:
      'The bridge waits and retries CRM calls (Retry-After 60 s): lists load slowly, then show a rate-limit error; write-backs are retried later, visible in Activity.',
    offline:
      'Like a failure, but the Overview names the CRM as not reachable (connection refused); catch-up runs are marked failed on the Overview.',
  },
  postsvc: {
    fail: 'Scheduling a post says "Not posted." with the provider\'s error; webhook posts from the CRM are retried and then marked Failed on Posts; Analytics collection fails ("Last collection failed"); the Overview shows the provider unreachable.',
    throttle:
      'Scheduling says the provider is limiting requests and to wait a minute (RATE_LIMIT); queued posts wait and retry by themselves.',
    offline:
      'Like a failure, with "not reachable" on the Overview; a post whose outcome is unknown is checked against the provider\'s history when it is back, never posted twice.',
    'refuse-platform':
      'A post to that platform and another says "Partly posted. Posted on …; <platform> refused it: …"; its row on Posts shows Partly failed, with the Retry failed, Cancel the rest and Edit… buttons.',
  },
  gateway: {
    fail: "Creating, syncing or deleting a broadcast shows the host's error (STREAMHOST_ERROR) on Broadcasts; publishing to a platform is retried and then shown Failed with the gateway's answer.",
    throttle: 'Broadcast actions say the service is limiting requests; publishes wait and retry.',
    offline:
      'Broadcasts cannot be created or synced (the gateway is not reachable); the Overview shows it unreachable; ON AIR stays as it was last read.',
  },
  automation: {
    fail: "Moving a guest starts no workflow: the run shows as failed on Guests with n8n's error and Run again; Activity records it.",
    throttle: 'Guest workflows are retried later; the run shows as waiting, then failed if it keeps up.',
    offline:
      'Guest workflows fail with "not reachable" on Guests and the Overview; Run again works once it is back.',
  },
};
