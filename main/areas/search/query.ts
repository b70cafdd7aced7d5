/**
 * What a search text asks for (issue #42.3), pure: the text itself, and the episode number when it
 * reads as one ("episode 12", "ep. 12", "Ep12", "#12"), so "where is episode 12?" finds the
 * production named "The Studio Hour #12: …", its take `20261201_The_Studio_Hour_12_…` and its
 * broadcast "The Studio Hour #12 Live".
 */
export interface SearchQuery {
  /** Trimmed, inner runs of spaces made one. */
  text: string;
  episode: number | null;
}

const EPISODE = /^(?:where\s+is\s+)?(?:episode|ep\.?|#|no\.?)\s*#?\s*(\d{1,5})\s*\??$/i;

export function readQuery(q: string): SearchQuery {
  const text = q.trim().replace(/\s+/g, ' ');
  const number = EPISODE.exec(text)?.[1];
  return { text, episode: number === undefined ? null : Number(number) };
}

/** Spaces and underscores alike, case ignored: how names made from titles compare with typed text. */
const folded = (value: string): string => value.toLowerCase().replace(/[\s_]+/g, ' ');

/** Whether `value` holds the typed text (case, spaces and underscores aside). */
export function holdsText(value: string, query: SearchQuery): boolean {
  return folded(value).includes(folded(query.text));
}

/**
 * Whether a name speaks of episode `n`: `#12`, `episode 12`, `ep12`, or 12 standing as a word of
 * its own (`Hour_12_`), never inside another number (`#120`, the date `20261212`) or a take's
 * `_T12`.
 */
export function namesEpisode(name: string, n: number): boolean {
  return new RegExp(`(?:^|[^0-9a-z])(?:#|ep(?:isode)?[ ._-]*)?0*${n}(?![0-9])`, 'i').test(name);
}
