import { describe, expect, it } from 'vitest';
import {
  peerCardWords,
  peerFailurePast,
  waitingLabel,
  waitingWords,
} from '../../../renderer/src/api/words.js';
import type { PeerHealth } from '../../../shared/api/health.js';

const at = '2026-12-02T10:42:00.000Z';
const time = /\d{1,2}:\d{2}/;

describe("an action's peer failure once the peer is back (issue #40.2)", () => {
  it('says what happened in the past tense, with its time, and that the peer is back', () => {
    const words = peerFailurePast({ name: 'crm', cause: 'unreachable' }, at);
    expect(words).toMatch(/^The CRM could not be reached at \d{1,2}:\d{2}.*; it is back now\.$/);
    expect(peerFailurePast({ name: 'gateway', cause: 'failing', status: 500 }, at)).toMatch(
      /^The publishing gateway was failing at \d{1,2}:\d{2}.*; it answers again now\.$/,
    );
    expect(peerFailurePast({ name: 'postsvc', cause: 'throttled', retryAfterS: 60 }, at)).toMatch(
      /^The posting provider was limiting how often the bridge may ask at .*; it no longer is\.$/,
    );
    expect(peerFailurePast({ name: 'automation', cause: 'refused-key', status: 401 }, at)).toMatch(
      /^The automation engine \(n8n\) refused the bridge’s key at .*; it accepts it now\.$/,
    );
  });

  it('a refusal of what was sent is not a peer state: it stays as it was said', () => {
    expect(peerFailurePast({ name: 'postsvc', cause: 'refused', status: 400 }, at)).toBeNull();
  });
});

const reading = (over: Partial<PeerHealth>): PeerHealth => ({
  configured: true,
  state: 'reachable',
  until: null,
  reachable: true,
  latencyMs: 4,
  checkedAt: '2026-12-02T10:45:00.000Z',
  lastError: null,
  lastErrorAt: null,
  url: 'http://127.0.0.1:1',
  refusedKeyFor: null,
  ...over,
});

describe("a peer card's last error in words (issue #40.2)", () => {
  it('a current failure is said by its state, never by the raw call and status', () => {
    const words = peerCardWords(
      'crm',
      reading({ state: 'failing', lastError: 'crm GET /StreamhostBroadcast: HTTP 500', lastErrorAt: at }),
    );
    expect(words).toEqual({ current: true, words: 'The CRM answers with errors.' });
    expect(
      peerCardWords(
        'gateway',
        reading({ state: 'unreachable', lastError: 'connect ECONNREFUSED', lastErrorAt: at }),
      ),
    ).toEqual({
      current: true,
      words: 'The publishing gateway cannot be reached: it is off, or its address in Settings is wrong.',
    });
  });

  it('a key saved for another address says so', () => {
    const words = peerCardWords(
      'postsvc',
      reading({
        state: 'refused-key',
        lastError: 'refused key: key saved for http://old:1',
        lastErrorAt: at,
        refusedKeyFor: 'http://old:1',
      }),
    );
    expect(words?.words).toBe(
      'Its key was saved for http://old:1, not this address: the bridge sends it nothing. Save its key again in Settings.',
    );
  });

  it('an error older than a reachable reading is past: its time, and that it has answered since', () => {
    const words = peerCardWords(
      'crm',
      reading({ lastError: 'crm GET /StreamhostBroadcast: HTTP 500', lastErrorAt: at }),
    );
    expect(words?.current).toBe(false);
    expect(words?.words).toMatch(time);
    expect(words?.words).toMatch(/^Last failed at .*; it has answered since\.$/);
    expect(words?.words).not.toMatch(/HTTP|GET/);
  });

  it('no error: nothing to say', () => {
    expect(peerCardWords('crm', reading({}))).toBeNull();
  });
});

describe('a request a peer holds back says what it waits on (issue #40.2)', () => {
  it('the button says who; the line beside it why, and until when when the peer said', () => {
    expect(waitingLabel('postsvc')).toBe('Waiting for the posting provider…');
    expect(waitingWords({ on: 'postsvc', reason: 'throttled', until: at })).toMatch(
      /^Waiting for the posting provider: it is limiting how often the bridge may ask, until \d{1,2}:\d{2}.*\.$/,
    );
    expect(waitingWords({ on: 'crm', reason: 'throttled', until: null })).toBe(
      'Waiting for the CRM: it is limiting how often the bridge may ask.',
    );
  });
});
