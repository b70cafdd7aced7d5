/**
 * Recorder filename rules (DESIGN §6.7). Pure: used by the bridge to validate and by the
 * dashboard for inline validation, so both say the same thing.
 */
const FORBIDDEN = /[/\\:*?"<>|]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
export const MAX_FILENAME_BYTES = 128;

export type FilenameCheck = { ok: true } | { ok: false; rule: string; suggestion: string };

export function checkRecorderFilename(filename: string, now: Date = new Date()): FilenameCheck {
  const rule = firstBrokenRule(filename);
  return rule === null
    ? { ok: true }
    : { ok: false, rule, suggestion: suggestRecorderFilename(filename, now) };
}

function firstBrokenRule(filename: string): string | null {
  const bytes = new TextEncoder().encode(filename).length;
  if (bytes === 0) return 'filename must not be empty';
  if (bytes > MAX_FILENAME_BYTES)
    return `filename is ${bytes} bytes UTF-8, at most ${MAX_FILENAME_BYTES} allowed`;
  if (CONTROL.test(filename)) return 'filename must not contain control characters';
  const forbidden = FORBIDDEN.exec(filename);
  if (forbidden) return `filename must not contain "${forbidden[0]}" (none of / \\ : * ? " < > |)`;
  if (filename === '.' || filename === '..') return 'filename must not be "." or ".."';
  if (/^[\s.]|[\s.]$/.test(filename)) return 'filename must not start or end with a space or a dot';
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

function truncateUtf8(text: string, maxBytes: number): string {
  const encoder = new TextEncoder();
  let out = '';
  for (const char of text) {
    if (encoder.encode(out + char).length > maxBytes) break;
    out += char;
  }
  return out.replace(/_+$/, '');
}
