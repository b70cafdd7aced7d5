/**
 * JSON as PHP's `json_encode($value)` writes it with default flags, which is what EspoCRM
 * signs and sends: `/` escaped as `\/` and every non-ASCII character as `\uXXXX` (UTF-16
 * units, lower-case hex). A receiver that re-serialises the body gets different bytes and a
 * signature that does not match; that is the point of reproducing it.
 */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
