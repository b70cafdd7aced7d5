/**
 * Pieces of the JSON Schema `pattern`s /openapi.json publishes, in the subset every common
 * OpenAPI tool reads alike (issue #25.6): printable ASCII with `\uXXXX` escapes, no `\p{…}`, no
 * look-arounds, no `\d \w \s` (Python's `\d` takes Arabic-Indic digits, its `\s` more spaces
 * than JavaScript's). A published pattern may be stricter than the bridge's own check, which
 * stays in zod; it must not accept what the bridge refuses, except where its description says.
 * Each constant is the inside of a character class: `[^${CONTROL}${SURROGATE}]`.
 */

/** What JavaScript's `\s` matches, spelled out. */
export const SPACE = String.raw`\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff`;
/** C0 controls, DEL and C1 controls (`\p{Cc}`). */
export const CONTROL = String.raw`\u0000-\u001f\u007f-\u009f`;
/** Halves of surrogate pairs (`\p{Cs}`): read per code point, only a lone one matches. */
export const SURROGATE = String.raw`\ud800-\udfff`;
/** ASCII digits (`\d`). */
export const DIGIT = '0-9';
/**
 * Letters (a subset of `\p{L}`: ASCII, Latin-1 and Latin Extended, Greek capitals, Cyrillic, CJK),
 * for a published "holds a letter": stricter than the bridge's `\p{L}`, never looser.
 */
export const LETTER = String.raw`A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0391-\u03a1\u03a3-\u03a9\u0400-\u0481\u4e00-\u9fff`;
