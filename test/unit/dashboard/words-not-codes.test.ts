import { describe, expect, it } from 'vitest';
import { gatewayFailureWords } from '../../../renderer/src/api/words.js';
import { evidenceWords } from '../../../renderer/src/clips/signal-words.js';

describe('words, not codes (issue #40.4)', () => {
  it("a gateway's failure on a publish record: its code and HTTP status go to the details", () => {
    const text =
      'AUTH_ERROR: altvideo rejected the upload (401): the account token has expired, reconnect it at the gateway';
    expect(gatewayFailureWords(text)).toEqual({
      words: 'Altvideo rejected the upload: the account token has expired, reconnect it at the gateway.',
      details: text,
    });
    expect(gatewayFailureWords('Upload refused.')).toEqual({ words: 'Upload refused.', details: null });
  });

  it("a clip's emotion evidence says the tone, not the AFINN score", () => {
    expect(evidenceWords(['AFINN -2', 'hate', 'awful'])).toBe('negative tone: hate, awful');
    expect(evidenceWords(['AFINN +3', 'love'])).toBe('positive tone: love');
    expect(evidenceWords(['AFINN 0'])).toBe('neutral tone');
    expect(evidenceWords(['why', 'because'])).toBe('why, because');
  });
});
