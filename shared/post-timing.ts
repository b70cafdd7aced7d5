/**
 * The posting rules' times (DESIGN §6.2), apart from shared/post-rules.ts, which loads
 * twitter-text: the bridge's contracts and its spacing search need these at start, the text
 * rules only when a post is reviewed.
 */

/** Recommended lead time: a post scheduled sooner is accepted with a warning. */
export const MIN_LEAD_MS = 10 * 60_000;
/** Recommended spacing between two posts on the same platform. */
export const MIN_SPACING_MS = 2 * 3_600_000;
