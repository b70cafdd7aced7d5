/**
 * What counts as a secret in what the bridge stores or logs (DESIGN §7): the delivery log, job
 * payloads, activity and logs. The CRM echoes secrets back in update webhooks (a Published
 * PlatformPublish carries its streamKey), and a test webhook carries whatever it is sent.
 *
 * By name, however it is spelled (case, `_` and `-` do not count): names ending in `key`,
 * `secret`, `token`, `password` (or `passwd`); `pwd`, `pass`, `authorization`; names starting
 * with `credential`. Never the bridge's own `idempotencyKey` and `dedupeKey`: reconciling an
 * unknown outcome needs them (§6.2).
 * By value: in an `rtmp://` or `rtmps://` URL with two or more path segments, the last segment
 * (`/app/<key>`), wherever the URL stands (a note, a URL field); a string that parses as JSON
 * holding a secret is stored with it redacted.
 */
export const REDACTED = '[redacted]';

const normalised = (name: string) => name.toLowerCase().replace(/[-_]/g, '');
const SECRET_ENDINGS = ['key', 'secret', 'token', 'password', 'passwd'];
const SECRET_NAMES = new Set(['pwd', 'pass', 'authorization']);
const NEVER_SECRET = new Set(['idempotencykey', 'dedupekey']);

export function isSecretName(name: string): boolean {
  const plain = normalised(name);
  if (NEVER_SECRET.has(plain)) return false;
  return (
    SECRET_NAMES.has(plain) ||
    plain.startsWith('credential') ||
    SECRET_ENDINGS.some((ending) => plain.endsWith(ending))
  );
}

/**
 * `rtmp(s)://host[:port]/seg/.../<last>`: the last segment is the key when there are two or more.
 * A segment stops at whitespace, quotes, `?`, `#` and the characters that end a URL in prose.
 */
const RTMP_URL = /\brtmps?:\/\/[^\s/"'<>]+((?:\/[^\s/"'<>?#]*)+)/gi;

/** The text with the key of every rtmp(s) URL in it replaced. */
export function redactRtmpKeys(text: string): string {
  if (!/rtmps?:\/\//i.test(text)) return text;
  return text.replace(RTMP_URL, (url: string, path: string) => {
    const segments = path.split('/').slice(1);
    const last = segments[segments.length - 1] ?? '';
    if (segments.length < 2 || last === '' || last === REDACTED) return url;
    return `${url.slice(0, url.length - last.length)}${REDACTED}`;
  });
}

/** Nothing to hide: absent, empty, already redacted, or masked (`••••1234`, kernel/secret-mask.ts). */
const isBlank = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  value === REDACTED ||
  (typeof value === 'string' && value.startsWith('••••'));

/** A string value's redaction: a JSON text holding a secret is redacted inside; rtmp keys go. */
function redactString(value: string): string {
  const trimmed = value.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined) {
      const inner = redactParsed(parsed);
      return inner.changed ? JSON.stringify(inner.value) : value;
    }
  }
  return redactRtmpKeys(value);
}

/** A copy of a parsed JSON value with every secret replaced, and whether any was. */
export function redactParsed(value: unknown): { value: unknown; changed: boolean } {
  if (typeof value === 'string') {
    const out = redactString(value);
    return { value: out, changed: out !== value };
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => redactParsed(item));
    return { value: items.map((item) => item.value), changed: items.some((item) => item.changed) };
  }
  // Plain records only: an Error or a Buffer (in a log line) is left to its serializer.
  if (value === null || typeof value !== 'object' || !isPlainRecord(value)) return { value, changed: false };
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (isSecretName(name) && !isBlank(inner)) {
      out[name] = REDACTED;
      changed = true;
      continue;
    }
    const result = redactParsed(inner);
    out[name] = result.value;
    changed ||= result.changed;
  }
  return { value: out, changed };
}

function isPlainRecord(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The value with its secrets replaced; the value itself (not a copy) when it holds none. */
export function redactSecrets<T>(value: T): T {
  const result = redactParsed(value);
  return result.changed ? (result.value as T) : value;
}

/**
 * Every secret name contains one of these (case aside) once `-` and `_` are dropped, and JSON can
 * only spell a name otherwise with a \u escape; a value secret is an rtmp URL. A payload with
 * none of them holds no secret. The `[-_]*` between letters stands for the dropping: the payload
 * is searched as it is, not copied.
 */
const MAYBE_SECRET =
  /k[-_]*e[-_]*y|p[-_]*a[-_]*s[-_]*s|p[-_]*w[-_]*d|s[-_]*e[-_]*c[-_]*r[-_]*e[-_]*t|t[-_]*o[-_]*k[-_]*e[-_]*n|a[-_]*u[-_]*t[-_]*h[-_]*o[-_]*r[-_]*i[-_]*z|c[-_]*r[-_]*e[-_]*d[-_]*e[-_]*n[-_]*t[-_]*i[-_]*a[-_]*l|rtmp|\\[-_]*u/i;

/** False when the raw JSON cannot hold a secret (then neither can any value parsed from it). */
export function mayHoldSecret(raw: string): boolean {
  return MAYBE_SECRET.test(raw);
}

// A JSON property whose value is a string or a number: `"name": "value"` or `"name": 123`.
const PROPERTY = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*)/g;

/**
 * The raw payload as received, with secret values replaced. The rest stays byte for byte
 * (PHP-escaped JSON as EspoCRM sends it) when only names were secret. When a secret is out of
 * reach of that textual pass (a name written with escapes, an object under a secret name, an
 * rtmp URL, a JSON string), the payload is stored re-serialised instead: never with the secret.
 */
export function redactPayload(raw: string): string {
  if (!mayHoldSecret(raw)) return raw;
  const text = raw.replace(PROPERTY, (match, name: string, colon: string, value: string) =>
    isSecretName(name) && value !== '""' ? `"${name}"${colon}"${REDACTED}"` : match,
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactRtmpKeys(text); // not JSON: http/ refuses such bodies before a delivery is logged
  }
  const rest = redactParsed(parsed);
  return rest.changed ? JSON.stringify(rest.value) : text;
}
