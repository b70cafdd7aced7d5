/**
 * Recorder filename rules (DESIGN §6.7). Pure: used by the bridge to validate and by the
 * dashboard for inline validation, so both say the same thing.
 */
import { CONTROL as PORTABLE_CONTROL, SPACE, SURROGATE } from './portable-pattern.js';

const FORBIDDEN = /[/\\:*?"<>|]/;
/** C0 controls, DEL and C1 controls (U+0080–U+009F): exFAT refuses them, the ATEM shows garbage. */
const CONTROL = /\p{Cc}/u;
/**
 * Characters that do not show, or that change the direction of what follows: a name with one
 * reads differently from what is saved (`con\u200b.mp4` shows as `con.mp4`; "evil\u202Evom.exe"
 * reads as "evilexe.mov"). Zero-width space, joiners and word joiner, LRM/RLM/ALM, the bidi
 * embeddings, overrides and isolates, the line and paragraph separators, invisible operators,
 * soft hyphen, Mongolian vowel separator, BOM. Spelled with `\u` escapes: the same text goes
 * into the published pattern.
 */
const INVISIBLE_CLASS = String.raw`\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff`;
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'u');
/** Half of a surrogate pair standing alone: not text, no UTF-8 for it (with /u it is its own code point). */
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * Windows device names, reserved in any case, whatever follows the name after trailing spaces
 * and a dot (`con.mp4` and `CON .mp4` are the console); COM and LPT with a digit 0–9 or a
 * superscript ¹ ² ³ (Windows reads those as digits too).
 */
const RESERVED_DEVICE = /^(CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|CLOCK\$|COM[0-9¹²³]|LPT[0-9¹²³]) *(\..*)?$/i;
const RESERVED_NAMES = 'CON, PRN, AUX, NUL, CONIN$, CONOUT$, CLOCK$, COM0–COM9, LPT0–LPT9, also with ¹ ² ³';
export const MAX_FILENAME_BYTES = 128;

/** Not in a name anywhere (portable spelling: shared/portable-pattern.ts). */
const notInName = `${PORTABLE_CONTROL}${SURROGATE}${INVISIBLE_CLASS}/\\\\:*?"<>|`;
/** Not at either end of a name. */
const notAtEdge = `${notInName}${SPACE}.`;

/**
 * The rule above as a portable JSON Schema pattern, for /openapi.json: all of it but two parts
 * only the bridge checks, as the description says: the UTF-8 byte count (`maxLength` counts code
 * points) and the Windows device names (without a look-ahead, leaving them out would take
 * a pattern of kilobytes).
 */
export const recorderFilenameJsonSchema = {
  minLength: 1,
  maxLength: MAX_FILENAME_BYTES,
  pattern: `^[^${notAtEdge}](?:[^${notInName}]*[^${notAtEdge}])?$`,
  description: `at most ${MAX_FILENAME_BYTES} bytes UTF-8; no control, invisible or direction characters, none of / \\ : * ? " < > |, no leading or trailing space or dot; not a Windows device name (${RESERVED_NAMES}) before a dot or trailing spaces (checked by the bridge)`,
};

export type FilenameCheck = { ok: true } | { ok: false; rule: string; suggestion: string };

/** How the name will be used: with a recorder (OBS), some characters mean something to OBS. */
export interface FilenameUse {
  recorder?: boolean;
}

/** OBS's FilenameFormatting expands `%CCYY`, `%hh`…: a `%` would not reach the file as typed (DESIGN §5.5). */
export const PERCENT_WITH_RECORDER_RULE =
  'filename must not contain "%" when a recorder is configured: OBS reads % as the start of a date code (%CCYY, %hh…)';

/**
 * OBS 29 on Linux starts its recording muxer through `/bin/sh` with the path in double quotes,
 * so `$` and a backquote are expanded by that shell: a name ran a command, `Ke$ha` was written
 * as `Ke`, `$HOME` lost the recording (DESIGN §5.5, measured on a real OBS). `"` and `\` are
 * refused by every name already. Refused whatever OBS version is connected: the bridge cannot
 * know which one will record, and a fixed OBS loses nothing by the rule.
 */
const SHELL_EXPANDED = /[$`]/;
const shellRule = (character: string) =>
  `filename must not contain "${character}" when a recorder is configured: OBS passes the name through a shell on Linux, which would expand it (run a command or drop part of the name)`;

export function checkRecorderFilename(
  filename: string,
  now: Date = new Date(),
  use: FilenameUse = {},
): FilenameCheck {
  const rule = firstBrokenRule(filename) ?? (use.recorder ? brokenRecorderRule(filename) : null);
  return rule === null
    ? { ok: true }
    : { ok: false, rule, suggestion: suggestRecorderFilename(filename, now) };
}

/** The rules only a recorder adds: characters OBS itself or its shell would read. */
function brokenRecorderRule(filename: string): string | null {
  if (filename.includes('%')) return PERCENT_WITH_RECORDER_RULE;
  const shell = SHELL_EXPANDED.exec(filename);
  return shell ? shellRule(shell[0]) : null;
}

function firstBrokenRule(filename: string): string | null {
  if (filename === '') return 'filename must not be empty';
  // Before counting bytes: TextEncoder would count a lone surrogate as the 3 bytes of U+FFFD.
  if (LONE_SURROGATE.test(filename))
    return 'filename contains an unpaired surrogate (a broken character, not valid Unicode text)';
  const bytes = new TextEncoder().encode(filename).length;
  if (bytes > MAX_FILENAME_BYTES)
    return `filename is ${bytes} bytes UTF-8, at most ${MAX_FILENAME_BYTES} allowed`;
  if (CONTROL.test(filename)) return 'filename must not contain control characters';
  if (INVISIBLE.test(filename))
    return 'filename must not contain invisible characters or text-direction controls (they make a name read differently from what is saved)';
  const forbidden = FORBIDDEN.exec(filename);
  if (forbidden) return `filename must not contain "${forbidden[0]}" (none of / \\ : * ? " < > |)`;
  if (filename === '.' || filename === '..') return 'filename must not be "." or ".."';
  if (/^[\s.]|[\s.]$/.test(filename)) return 'filename must not start or end with a space or a dot';
  const device = RESERVED_DEVICE.exec(filename);
  if (device)
    return `filename must not be "${device[1]}": a reserved device name on Windows (${RESERVED_NAMES}), with or without an extension`;
  return null;
}

/** `YYYYMMDD_<name>`: each run of characters other than letters and digits becomes one `_` (spec §4.5). */
export function suggestRecorderFilename(name: string, now: Date = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  const cleaned = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
  const stem = `${day}_${cleaned || 'recording'}`;
  return truncateUtf8(stem, MAX_FILENAME_BYTES);
}

/**
 * The name of take `take` (2, 3…) of `base`: `base_T02`, the base shortened (whole characters,
 * no trailing space, dot or `_` left before the suffix) so the whole stays within the byte limit.
 */
export function takeFilename(base: string, take: number): string {
  const suffix = `_T${String(take).padStart(2, '0')}`;
  const room = MAX_FILENAME_BYTES - new TextEncoder().encode(suffix).length;
  const stem = truncateUtf8(base, room).replace(/[\s._]+$/u, '');
  return `${stem || 'recording'}${suffix}`;
}

/** `base` when no take used it yet, else the first `base_Tnn` (from 2) no take used. */
export function nextFreeTakeName(base: string, used: (name: string) => boolean): string {
  if (!used(base)) return base;
  for (let take = 2; ; take++) {
    const name = takeFilename(base, take);
    if (!used(name)) return name;
  }
}

function truncateUtf8(text: string, maxBytes: number): string {
  const encoder = new TextEncoder();
  let out = '';
  for (const char of text) {
    if (encoder.encode(out + char).length > maxBytes) break;
    out += char;
  }
  return out.replace(/_+$/, '');
}
