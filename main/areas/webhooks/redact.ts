/**
 * Secrets that must not sit in the database (DESIGN §7): the CRM echoes them back in update
 * webhooks (a Published PlatformPublish carries its streamKey), and a test webhook carries
 * whatever it is sent. Both the 14-day delivery log and the queued items are redacted.
 *
 * An attribute is secret by its name, however it is spelled: `streamKey`, `stream_key` and
 * `Stream-Key` are one name (case, `_` and `-` do not count). Names ending in these are secret;
 * so is `key` inside a `streamSource` (a broadcast's ingest key).
 */
const SECRET_NAME_ENDINGS = ['streamkey', 'password', 'passwd', 'apikey', 'secret', 'secretkey', 'token'];
const REDACTED = '[redacted]';

const normalised = (name: string) => name.toLowerCase().replace(/[-_]/g, '');
const isSecretName = (name: string, parent: string | null) =>
  SECRET_NAME_ENDINGS.some((ending) => normalised(name).endsWith(ending)) ||
  (parent !== null && normalised(parent) === 'streamsource' && normalised(name) === 'key');

/** Nothing to hide: absent, empty, or already redacted. */
const isBlank = (value: unknown) =>
  value === null || value === undefined || value === '' || value === REDACTED;

/** A copy of a parsed JSON value with every secret attribute's value replaced, and whether any was. */
function redactParsed(value: unknown, parent: string | null = null): { value: unknown; changed: boolean } {
  if (Array.isArray(value)) {
    const items = value.map((item) => redactParsed(item, parent));
    return { value: items.map((item) => item.value), changed: items.some((item) => item.changed) };
  }
  if (value === null || typeof value !== 'object') return { value, changed: false };
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (isSecretName(name, parent) && !isBlank(inner)) {
      out[name] = REDACTED;
      changed = true;
      continue;
    }
    const result = redactParsed(inner, name);
    out[name] = result.value;
    changed ||= result.changed;
  }
  return { value: out, changed };
}

/** Whether any attribute name in the value is a secret one (a walk that copies nothing). */
function holdsSecretName(value: unknown, parent: string | null = null): boolean {
  if (Array.isArray(value)) return value.some((item) => holdsSecretName(item, parent));
  if (value === null || typeof value !== 'object') return false;
  for (const name in value) {
    if (isSecretName(name, parent)) return true;
    if (holdsSecretName((value as Record<string, unknown>)[name], name)) return true;
  }
  return false;
}

/** A webhook item as it may be queued: its secret attributes replaced (handlers read secrets from the CRM). */
export function redactSecrets<T>(value: T): T {
  // Most items name no secret: they are queued as they are, not copied.
  return holdsSecretName(value) ? (redactParsed(value).value as T) : value;
}

/**
 * Every secret name contains one of these (case aside) once `-` and `_` are dropped, and JSON can
 * only spell a name otherwise with a \u escape. A payload with none of them holds no secret. The
 * `[-_]*` between letters stands for the dropping: the payload is searched as it is, not copied.
 */
const MAYBE_SECRET =
  /k[-_]*e[-_]*y|p[-_]*a[-_]*s[-_]*s[-_]*w|s[-_]*e[-_]*c[-_]*r[-_]*e[-_]*t|t[-_]*o[-_]*k[-_]*e[-_]*n|\\[-_]*u/i;

/** False when the raw JSON cannot hold a secret attribute (then neither can any value parsed from it). */
export function mayHoldSecret(raw: string): boolean {
  return MAYBE_SECRET.test(raw);
}

// A JSON property whose value is a string or a number: `"name": "value"` or `"name": 123`.
const PROPERTY = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*)/g;

/**
 * The raw payload as received, with secret attribute values replaced. The rest stays byte for
 * byte (PHP-escaped JSON as EspoCRM sends it). When a secret is out of reach of that textual
 * pass (a name written with escapes, an object under a secret name), the payload is stored
 * re-serialised instead: never with the secret.
 */
export function redactPayload(raw: string): string {
  if (!mayHoldSecret(raw)) return raw;
  const text = raw.replace(PROPERTY, (match, name: string, colon: string, value: string) =>
    isSecretName(name, null) && value !== '""' ? `"${name}"${colon}"${REDACTED}"` : match,
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text; // not JSON: http/ refuses such bodies before a delivery is logged
  }
  const rest = redactParsed(parsed);
  return rest.changed ? JSON.stringify(rest.value) : text;
}
