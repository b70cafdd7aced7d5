import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { espoSignatureCheck, signEspoBody, verifyEspoSignature } from '../../../main/http/espo-signature.js';

// PHP's json_encode escapes "/" and non-ASCII: the bytes differ from JSON.stringify's.
const phpBody = Buffer.from(
  '[{"id":"a1b2c3d4e5f6g7h8i","name":"Caf\\u00e9 \\/ Br\\u00fccke","url":"https:\\/\\/x.test\\/a"}]',
);

describe('verifyEspoSignature', () => {
  it('accepts the Signature header: base64("<id>:" + hex hmac) over the raw bytes', () => {
    const hex = createHmac('sha256', 's3cret').update(phpBody).digest('hex');
    const header = Buffer.from(`wh123:${hex}`).toString('base64');
    expect(verifyEspoSignature(phpBody, { signature: header }, ['other', 's3cret'])).toEqual({
      ok: true,
      webhookId: 'wh123',
    });
  });

  it('accepts the legacy X-Signature header: base64("<id>:" + raw hmac bytes)', () => {
    const raw = createHmac('sha256', 's3cret').update(phpBody).digest();
    const header = Buffer.concat([Buffer.from('wh9:'), raw]).toString('base64');
    expect(verifyEspoSignature(phpBody, { xSignature: header }, ['s3cret'])).toEqual({
      ok: true,
      webhookId: 'wh9',
    });
  });

  it('refuses a signature over re-serialised JSON (the bytes matter)', () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(phpBody.toString())));
    const header = signEspoBody(reserialised, 's3cret', 'wh1');
    const check = verifyEspoSignature(phpBody, { signature: header }, ['s3cret']);
    expect(check.ok).toBe(false);
  });

  it('refuses unsigned, malformed and wrong-secret requests with a reason', () => {
    expect(verifyEspoSignature(phpBody, {}, ['s'])).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not signed'),
    });
    expect(verifyEspoSignature(phpBody, { signature: 'bm9jb2xvbg==' }, ['s'])).toMatchObject({ ok: false });
    const header = signEspoBody(phpBody, 'right', 'wh1');
    expect(verifyEspoSignature(phpBody, { signature: header }, ['wrong'])).toMatchObject({
      ok: false,
      reason: expect.stringContaining('does not match'),
    });
  });

  it('round-trips with the bridge signer in both formats', () => {
    for (const legacy of [false, true]) {
      const header = signEspoBody(phpBody, 'k', 'hook', legacy);
      const headers = legacy ? { xSignature: header } : { signature: header };
      expect(verifyEspoSignature(phpBody, headers, ['k'])).toEqual({ ok: true, webhookId: 'hook' });
    }
  });
});

describe('espoSignatureCheck (the body read as a stream)', () => {
  it('gives the same verdict for the body fed in pieces as for the whole', () => {
    for (const legacy of [false, true]) {
      const header = signEspoBody(phpBody, 'k', 'hook', legacy);
      const headers = legacy ? { xSignature: header } : { signature: header };
      const check = espoSignatureCheck(headers, ['other', 'k']);
      for (let at = 0; at < phpBody.length; at += 7) check.update(phpBody.subarray(at, at + 7));
      expect(check.result()).toEqual({ ok: true, webhookId: 'hook' });
    }
    const wrong = espoSignatureCheck({ signature: signEspoBody(phpBody, 'k', 'hook') }, ['k']);
    wrong.update(phpBody.subarray(1));
    expect(wrong.result()).toMatchObject({ ok: false, reason: expect.stringContaining('does not match') });
  });
});
