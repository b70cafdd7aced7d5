import type { RehearsalFault, RehearsalPeer } from '../../../shared/api/sandbox.js';

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
 * rehearsal teaches where each failure shows up. Each sentence was checked in the browser against
 * the sandbox (test/e2e/rehearsal-words.spec.ts and sandbox-panel.spec.ts check some of them).
 */
export const whatYouSee: Record<RehearsalPeer, Partial<Record<RehearsalFault, string>>> = {
  crm: {
    fail: 'Within 30 s the header says "Bridge degraded" and the Overview shows the CRM unreachable with its HTTP 500; Posts lists only the bridge\'s own posts, with a note that the CRM could not be read; Guests says "The CRM is failing (HTTP 500)" with Retry once the bridge\'s and the page\'s tries are used up (about 15 s).',
    throttle:
      'Guests and Broadcasts say "The CRM is limiting how often the bridge may ask and asked it to wait 60 s"; the bridge holds its CRM calls back for that minute, also after you put it back, and queued write-backs wait by themselves.',
    offline:
      'Guests says "The CRM could not be reached: it is off, or its address in Settings is wrong" with Retry; Posts lists only the bridge\'s own posts; the Overview shows the CRM unreachable (connection refused).',
  },
  postsvc: {
    fail: 'Scheduling a post says "Not posted. The posting provider is failing (HTTP 500)"; CRM posts are retried by the queue and marked Failed on Posts if it keeps failing; the Overview shows the provider unreachable.',
    throttle:
      'Scheduling says "Not posted. The posting provider is limiting how often the bridge may ask and asked it to wait 60 s"; the bridge sends nothing to it for that minute, also after you put it back; queued posts wait and go by themselves.',
    offline:
      'Scheduling says "Not posted. The posting provider could not be reached"; a post whose outcome is unknown is checked against the provider\'s history when it is back, never posted twice.',
    'refuse-platform':
      'A post to that platform and another says "Partly posted. Posted on …; <platform> refused it: …"; its row on Posts shows Partly failed, with the Retry failed, Cancel the rest and Edit… buttons.',
  },
  gateway: {
    fail: 'Creating a broadcast says "The broadcast was not created. The publishing gateway is failing (HTTP 500)"; Sync now says how many broadcasts had errors; the list keeps what was last read.',
    throttle:
      'Creating a broadcast says the gateway "is limiting how often the bridge may ask and asked it to wait 60 s"; for that minute every gateway action answers at once with the time left, also after you put it back.',
    offline:
      'Creating a broadcast says "The publishing gateway could not be reached: it is off, or its address in Settings is wrong"; Sync now counts errors; the list and ON AIR keep what was last read.',
  },
  automation: {
    fail: 'Moving a guest to a stage with a workflow: the guest\'s timeline shows the workflow "retrying" with n8n\'s HTTP 500; once you put n8n back, the next try starts it (once).',
    throttle:
      'The guest\'s workflow shows "retrying" with n8n\'s HTTP 429 and is tried again later by itself.',
    offline:
      'Moving a guest to a stage with a workflow: the guest\'s timeline shows the workflow "retrying" with "connection refused"; once it is back the next try starts it (once).',
  },
};
