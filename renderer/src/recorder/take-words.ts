/**
 * A take's facts in an editor's words. Pure and apart from the Takes panel: the header's REC
 * indicator (in the first screen's bundle) needs `position` without the panel and what it imports.
 */

/** The file's audio as an editor says it. */
export function audioWords(channels: number): string {
  if (channels === 0) return 'no audio';
  if (channels === 1) return 'mono';
  return channels === 2 ? 'stereo' : `${channels} channels`;
}

/** `1:02:05` or `2:05`: a position in a take, as a video player shows it. */
export function position(seconds: number): string {
  const s = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(s % 60)}` : `${minutes}:${pad(s % 60)}`;
}
