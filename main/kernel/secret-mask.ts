import type { StreamSource } from '../../shared/api/broadcasts.js';

/**
 * Stream keys let anyone broadcast on the studio's channel: never logged, never returned in
 * full. `••••1234` is enough to recognise one; a key of 8 characters or fewer shows nothing.
 */
export function maskKey(value: string): string {
  return value.length > 8 ? `••••${value.slice(-4)}` : '••••';
}

/** The source with its key masked, for activity records and answers. */
export function maskStreamSource(source: StreamSource): StreamSource {
  return source.key === undefined ? source : { ...source, key: maskKey(source.key) };
}

/** Replaces every occurrence of each secret in `text` by its mask (a peer may echo a key in an error). */
export function redactText(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    out = out.split(secret).join(maskKey(secret));
  }
  return out;
}

/** redactText applied to every string inside a JSON-like value. */
export function redactValue(value: unknown, secrets: readonly (string | null | undefined)[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, secrets)]));
  }
  return value;
}
