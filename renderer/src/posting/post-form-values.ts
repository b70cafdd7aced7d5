import { platformKeys, type PlatformKey } from '../../../shared/platforms.js';
import { toLocalInput } from './time.js';

/** What the operator edits in a post form (PostForm), as typed. */
export interface PostFormValues {
  text: string;
  platforms: PlatformKey[];
  /** The hashtags field (the composer's): names apart by commas or spaces. */
  hashtags: string;
  /** The media links, one a line. */
  media: string;
  /** A datetime-local value, in the operator's zone. */
  when: string;
  /** Publish now rather than at `when` (the composer's choice). */
  now: boolean;
}

/** The hashtags field's names: apart by commas or spaces. */
export const splitTags = (text: string) => text.split(/[\s,]+/).filter((tag) => tag !== '');

/** The media field's links: one a line, blank lines left out. */
export const splitLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The next quarter hour an hour from now, as a datetime-local value: a new time's default. */
export function anHourAhead(now: number = Date.now()): string {
  const inAnHour = new Date(now + 60 * 60_000);
  inAnHour.setMinutes(Math.ceil(inAnHour.getMinutes() / 15) * 15, 0, 0);
  return toLocalInput(inAnHour);
}

/** What a post made from a clip links to (issue #44.2), sent with it; empty for any other post. */
export interface PostLinks {
  contentProductionId?: string;
  clipId?: string;
}

/** The composer's links from the address: `production` and `clip` ("Post this clip" gives both). */
export function postLinksOf(params: URLSearchParams): PostLinks {
  const production = params.get('production');
  const clip = params.get('clip');
  return {
    ...(production ? { contentProductionId: production } : {}),
    ...(clip ? { clipId: clip } : {}),
  };
}

/**
 * A composer opened with a post prefilled (issue #44.2: "Post this clip" on a clip made ready):
 * `text`, `media` (one a line) and `platform` from the address; what is absent stays as it was.
 */
export function prefilledForm(params: URLSearchParams, form: PostFormValues): PostFormValues {
  const platforms = params
    .getAll('platform')
    .filter((key): key is PlatformKey => (platformKeys as readonly string[]).includes(key));
  return {
    ...form,
    ...(params.has('text') ? { text: params.get('text') ?? '' } : {}),
    ...(params.has('media') ? { media: params.getAll('media').join('\n') } : {}),
    ...(platforms.length > 0 ? { platforms } : {}),
  };
}
