/**
 * Attributes whose values must not sit in the 14-day delivery log: the CRM echoes them back
 * in update webhooks (a Published PlatformPublish carries its streamKey).
 */
const SECRET_ATTRIBUTES = ['streamKey', 'password', 'apiKey', 'secretKey', 'token'];
const SECRET_VALUE = new RegExp(
  `("(?:${SECRET_ATTRIBUTES.join('|')})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`,
  'g',
);

/** The raw payload as received, with secret attribute values replaced. Works on PHP-escaped JSON too. */
export function redactPayload(raw: string): string {
  return raw.replace(SECRET_VALUE, (_match, before: string, value: string, after: string) =>
    value.length === 0 ? `${before}${after}` : `${before}[redacted]${after}`,
  );
}
