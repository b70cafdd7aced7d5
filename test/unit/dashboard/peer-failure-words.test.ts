import { describe, expect, it } from 'vitest';
import { peerFailureSentence, waitWords } from '../../../renderer/src/api/words.js';

describe("a peer's failure in words, by its cause (issue #30)", () => {
  it('an offline CRM is "could not be reached", never "check the key"', () => {
    const words = peerFailureSentence({ name: 'crm', cause: 'unreachable' });
    expect(words).toMatch(/^The CRM could not be reached/);
    expect(words).not.toMatch(/key/);
  });

  it('a throttling gateway says how long it asked the bridge to wait', () => {
    expect(peerFailureSentence({ name: 'gateway', cause: 'throttled', status: 429, retryAfterS: 60 })).toBe(
      'The publishing gateway is limiting how often the bridge may ask and asked it to wait 60 s. Try again after that; queued work waits by itself.',
    );
    expect(peerFailureSentence({ name: 'postsvc', cause: 'throttled', status: 429 })).toMatch(
      /^The posting provider is limiting how often the bridge may ask\. /,
    );
  });

  it('a key refused sends the operator to Settings; a failing peer is said in words, its status left to Details (issue #40.4)', () => {
    expect(peerFailureSentence({ name: 'automation', cause: 'refused-key', status: 401 })).toBe(
      'The automation engine (n8n) refused the bridge’s key. Check its key in Settings.',
    );
    expect(peerFailureSentence({ name: 'postsvc', cause: 'failing', status: 502 })).toMatch(
      /^The posting provider is failing\. /,
    );
  });

  it('a refusal of what was sent has no sentence of its own: the message says why', () => {
    expect(peerFailureSentence({ name: 'postsvc', cause: 'refused', status: 400 })).toBeNull();
  });

  it('waits in seconds up to 90 s, then minutes', () => {
    expect(waitWords(45)).toBe('45 s');
    expect(waitWords(0.2)).toBe('1 s');
    expect(waitWords(600)).toBe('10 min');
  });
});
