import { describe, expect, it } from 'vitest';
import type { ConnectionTestResult } from '../../../shared/api/settings.js';
import { connectionTestWords } from '../../../renderer/src/api/words.js';

const result = (fields: Partial<ConnectionTestResult>): ConnectionTestResult => ({
  success: true,
  peer: 'crm',
  url: 'https://crm.studio.example',
  outcome: 'reachable',
  latencyMs: 42,
  status: 200,
  retryAfterS: null,
  credentials: 'saved',
  savedKeyFor: null,
  detail: null,
  ...fields,
});

describe('Test connection in words (issue #41.1)', () => {
  it('reachable: who answered, how fast, and whether the key was taken', () => {
    expect(connectionTestWords(result({ detail: 'API user studio-bridge' }))).toEqual({
      tone: 'ok',
      text: 'Reachable: the CRM answered in 42 ms and accepted the key (API user studio-bridge).',
    });
    expect(connectionTestWords(result({ peer: 'obs', latencyMs: 7 })).text).toBe(
      'Reachable: OBS answered in 7 ms and accepted the password.',
    );
    expect(connectionTestWords(result({ peer: 'automation' })).text).toContain(
      'n8n checks the auth header only when a workflow starts',
    );
  });

  it('refused the key, not found, not that peer, timed out: each in words, no status code', () => {
    expect(
      connectionTestWords(result({ outcome: 'refused-key', credentials: 'given', status: 401 })).text,
    ).toBe('The CRM refused this key.');
    expect(connectionTestWords(result({ outcome: 'not-found', status: 404 })).text).toMatch(/^Not found: /);
    expect(connectionTestWords(result({ peer: 'postsvc', outcome: 'unreadable' })).text).toMatch(
      /^Not a posting provider: /,
    );
    const late = connectionTestWords(result({ outcome: 'no-answer', latencyMs: null, status: null }));
    expect(late).toEqual({
      tone: 'bad',
      text: 'The CRM did not answer in time: it may be overloaded. Try again in a minute.',
    });
    for (const outcome of ['refused-key', 'not-found', 'unreadable', 'failing'] as const)
      expect(connectionTestWords(result({ outcome, status: 503 })).text).not.toMatch(/\b(401|404|503)\b/);
  });

  it('a saved key kept back is said, with the origin it belongs to', () => {
    const words = connectionTestWords(
      result({ outcome: 'refused-key', credentials: 'none', savedKeyFor: 'https://crm.studio.example' }),
    );
    expect(words.text).toContain('The saved key was not sent: it belongs to https://crm.studio.example.');
  });
});
