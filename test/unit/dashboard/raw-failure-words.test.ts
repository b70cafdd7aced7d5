import { describe, expect, it } from 'vitest';
import { jobFailureWords, obsConnectionWords } from '../../../renderer/src/api/words.js';

/** Issue #40.4: the last raw strings on operator screens (Recorder card, Activity's jobs) said in words. */
describe('a failed job’s last error in words', () => {
  it.each([
    ['crm GET /api/v1/GuestBooking: HTTP 500', 'The CRM answered with an error.'],
    ['crm GET /api/v1/GuestBooking: HTTP 503 (Service Unavailable)', 'The CRM answered with an error.'],
    ['postsvc POST /post: HTTP 429', 'The posting provider asked the bridge to slow down.'],
    ['postsvc POST /post: HTTP 401', 'The posting provider refused the key.'],
    [
      'gateway GET /broadcasts/x: no answer within 10000 ms',
      'The publishing gateway did not answer in time.',
    ],
    ['automation POST /webhook/y: connection refused', 'The automation engine (n8n) could not be reached.'],
    [
      'crm GET /api/v1/App/user: answer is not JSON',
      'The CRM answered with something the bridge cannot read.',
    ],
    ['crm GET /api/v1/x: HTTP 404', 'The CRM did not find what the bridge asked for.'],
  ])('%s → %s', (raw, words) => {
    expect(jobFailureWords(raw)).toEqual({ words, details: raw });
  });

  it('keeps a message of the bridge’s own as it is (already words), with no Details', () => {
    expect(jobFailureWords('the take file is gone')).toEqual({
      words: 'the take file is gone',
      details: null,
    });
  });
});

describe('OBS’s last connection error in words', () => {
  it.each([
    ['connect ECONNREFUSED 127.0.0.1:4455', /not answering at its address/],
    ['could not connect', /not answering at its address/],
    ['Authentication failed. (code 4009)', /refused the password/],
    ['the connection to OBS closed: connection closed (code 1006)', /connection to OBS closed/],
    ['something else entirely', /could not keep a connection to OBS/],
  ])('%s', (raw, words) => {
    const said = obsConnectionWords(raw);
    expect(said).toMatch(words);
    expect(said).not.toContain(raw);
  });
});
