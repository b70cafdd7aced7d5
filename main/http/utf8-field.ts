import { isUtf8 } from 'node:buffer';
import { unescape } from 'node:querystring';

/**
 * Where in a JSON body the bytes stop being UTF-8 (DESIGN §4 INVALID_ENCODING, issue #25.3): the
 * path of the string they sit in (`body.0.contact.name`), or `body` when they are outside any
 * string or the JSON is broken anyway. Pure; only called for a body `isUtf8` refused, so the
 * byte-by-byte walk costs nothing on the way every valid body takes.
 */
export interface EncodingFault {
  field: string;
  /** Offset of the first byte that is not UTF-8, and that byte. */
  offset: number;
  byte: number;
}

export function findEncodingFault(raw: Buffer, root = 'body'): EncodingFault | null {
  if (isUtf8(raw)) return null;
  const offset = firstInvalidByte(raw);
  return { field: fieldAt(raw, offset, root), offset, byte: raw[offset] ?? 0 };
}

/**
 * The first byte where `raw` breaks the UTF-8 rules of RFC 3629: a stray continuation byte, a
 * sequence cut short, an overlong form, a surrogate (U+D800–DFFF), a code point past U+10FFFF.
 */
export function firstInvalidByte(raw: Buffer): number {
  let i = 0;
  while (i < raw.length) {
    const lead = raw[i]!;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    // The sequence's length and the range its second byte must fall in (this excludes
    // overlong forms, surrogates and code points past U+10FFFF: RFC 3629 §4).
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const next = raw[i + k];
      const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (next === undefined || next < min || next > max) return i;
    }
    i += length;
  }
  return raw.length;
}

/** Stands in for the bad bytes; private-use characters no client sends around an ASCII word. */
const MARKER = '\ue000not-utf8\ue001';

/**
 * The path of the JSON string holding byte `offset`: the bytes before it are valid UTF-8, so
 * the body is re-read with a marker in the bad byte's place, and the marker looked for.
 */
function fieldAt(raw: Buffer, offset: number, root: string): string {
  const text = raw.subarray(0, offset).toString('utf8') + MARKER + raw.subarray(offset + 1).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return root; // outside a string, or broken JSON: no field to name
  }
  const pending: { value: unknown; path: string }[] = [{ value: parsed, path: root }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (value.includes(MARKER)) return path;
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        // In a property name: the object holding it is what can be named.
        if (key.includes(MARKER)) return path;
        pending.push({ value: child, path: `${path}.${key}` });
      }
    }
  }
  return root;
}

/**
 * The first query parameter whose value, once its %-escapes are read as bytes, is not UTF-8
 * (`?type=%FF`), as `query.<name>`; Node's query parser would put U+FFFD in its place.
 */
export function findQueryEncodingFault(rawQuery: string): string | null {
  for (const pair of rawQuery.split('&')) {
    const equals = pair.indexOf('=');
    const [name, value] = equals < 0 ? [pair, ''] : [pair.slice(0, equals), pair.slice(equals + 1)];
    for (const part of [name, value]) if (!isUtf8(escapedBytes(part))) return `query.${unescape(name)}`;
  }
  return null;
}

/** The bytes a %-escaped URL part stands for (a `%` without two hex digits stays as it is). */
function escapedBytes(part: string): Buffer {
  const bytes = part.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
  return Buffer.from(bytes, 'latin1');
}
