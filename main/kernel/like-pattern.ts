/**
 * A LIKE pattern (with `ESCAPE '\'`) for "contains `text`": its `%`, `_` and `\` are matched as
 * themselves. `spaceIsAnyOne`: a space matches any one character, so "episode 12" finds a take
 * named `episode_12` (names made from titles put `_` for spaces). LIKE ignores case in ASCII only.
 */
export function likeContaining(text: string, { spaceIsAnyOne = false } = {}): string {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return `%${spaceIsAnyOne ? escaped.replace(/ /g, '_') : escaped}%`;
}
