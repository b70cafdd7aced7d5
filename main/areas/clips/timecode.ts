/** Time stamps as transcripts write them: `hh:mm:ss`, `h:mm:ss`, `mm:ss`, with `,mmm` or `.mmm`. */
export const TIMECODE = String.raw`(?:\d{1,2}:)?\d{1,3}:\d{2}(?:[.,]\d{1,3})?`;

const PARTS = /^(?:(\d{1,2}):)?(\d{1,3}):(\d{2})(?:[.,](\d{1,3}))?$/;

/** Seconds (float) of a time stamp, or null when it is not one (seconds above 59, say). */
export function parseTimecode(text: string): number | null {
  const match = PARTS.exec(text.trim());
  if (!match) return null;
  const [, h, m, s, frac] = match;
  const minutes = Number(m);
  const seconds = Number(s);
  // `75:30` is accepted as minutes:seconds (long recordings written without hours).
  if (seconds > 59 || (h !== undefined && minutes > 59)) return null;
  const fraction = frac ? Number(frac) / 10 ** frac.length : 0;
  return Number(h ?? 0) * 3600 + minutes * 60 + seconds + fraction;
}
