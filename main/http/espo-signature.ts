import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = { ok: true; webhookId: string } | { ok: false; reason: string };

/** The MAC's length in each header: hex text of SHA-256 in `Signature`, its raw bytes in `X-Signature`. */
const MAC_LENGTH = { signature: 64, 'x-signature': 32 } as const;

/**
 * Whether the headers could carry a signature at all, judged without the body: checked before
 * the body is read, so a request with none is refused without reading (or parsing) its bytes.
 */
export function signatureHeaderShape(headers: {
  signature?: string | undefined;
  xSignature?: string | undefined;
}): { ok: true } | { ok: false; reason: string } {
  const header = headers.signature ? 'signature' : headers.xSignature ? 'x-signature' : null;
  if (!header) return { ok: false, reason: 'webhook is not signed (no Signature or X-Signature header)' };
  const decoded = Buffer.from((headers.signature ?? headers.xSignature)!.trim(), 'base64');
  const colon = decoded.indexOf(0x3a);
  if (colon <= 0 || decoded.length - colon - 1 !== MAC_LENGTH[header])
    return { ok: false, reason: `${header} header is not "<webhookId>:<hmac>" in base64` };
  return { ok: true };
}

/**
 * EspoCRM signs the raw body (DESIGN §5.1):
 *   Signature:   base64("<webhookId>:" + hex(HMAC-SHA256(rawBody, secret)))
 *   X-Signature: base64("<webhookId>:" + rawHmacBytes)            (older servers)
 * The raw bytes matter: PHP escapes "/" and non-ASCII, so re-serialised JSON would not match.
 */
export function verifyEspoSignature(
  rawBody: Buffer,
  headers: { signature?: string | undefined; xSignature?: string | undefined },
  secrets: readonly string[],
): SignatureCheck {
  const check = espoSignatureCheck(headers, secrets);
  check.update(rawBody);
  return check.result();
}

/** A signature check fed the body piece by piece as it arrives (a 16 MB webhook is read as a stream). */
export interface StreamedSignatureCheck {
  update(chunk: Buffer): void;
  result(): SignatureCheck;
}

export function espoSignatureCheck(
  headers: { signature?: string | undefined; xSignature?: string | undefined },
  secrets: readonly string[],
): StreamedSignatureCheck {
  const header = headers.signature ? 'signature' : headers.xSignature ? 'x-signature' : null;
  const refused = (reason: string): StreamedSignatureCheck => ({
    update: () => undefined,
    result: () => ({ ok: false, reason }),
  });
  if (!header) return refused('webhook is not signed (no Signature or X-Signature header)');
  const decoded = Buffer.from((headers.signature ?? headers.xSignature)!.trim(), 'base64');
  const colon = decoded.indexOf(0x3a);
  if (colon <= 0) return refused(`${header} header is not "<webhookId>:<hmac>" in base64`);
  const webhookId = decoded.subarray(0, colon).toString('utf8');
  const presented = decoded.subarray(colon + 1);
  // One MAC per configured secret: which one signed is known only at the end.
  const macs = secrets.map((secret) => createHmac('sha256', secret));
  const judge = (): SignatureCheck => {
    for (const mac of macs) {
      const digest = mac.digest();
      const expected = header === 'signature' ? Buffer.from(digest.toString('hex'), 'utf8') : digest;
      if (presented.length === expected.length && timingSafeEqual(presented, expected))
        return { ok: true, webhookId };
    }
    return { ok: false, reason: `${header} does not match any configured webhook secret` };
  };
  let verdict: SignatureCheck | undefined;
  return {
    update: (chunk) => {
      for (const mac of macs) mac.update(chunk);
    },
    result: () => (verdict ??= judge()),
  };
}

/** The bridge's own signer, used by the sandbox CRM and tests. */
export function signEspoBody(
  rawBody: Buffer | string,
  secret: string,
  webhookId: string,
  legacy = false,
): string {
  const digest = createHmac('sha256', secret).update(rawBody).digest();
  const mac = legacy ? digest : Buffer.from(digest.toString('hex'), 'utf8');
  return Buffer.concat([Buffer.from(`${webhookId}:`, 'utf8'), mac]).toString('base64');
}
