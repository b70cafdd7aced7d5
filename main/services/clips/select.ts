import type { Candidate } from './windows.js';

/** Each further pick from a topic already picked counts this much less (spreads across topics). */
const SAME_TOPIC_DISCOUNT = 0.92;
/** Windows below this confidence are not worth suggesting. */
export const MIN_CONFIDENCE = 0.05;

/**
 * Greedy selection: the best window by confidence, discounted per clip already taken from
 * its topic, that overlaps none already taken; repeated up to `max`. Ties go to the earlier,
 * then the shorter window, so the result is the same for the same input. Returned sorted by
 * confidence (highest first).
 */
export function selectClips(candidates: readonly Candidate[], max: number): Candidate[] {
  // Best first, so each round can stop as soon as no later window can win (discounts only lower).
  const ranked = [...candidates].sort(
    (a, b) => b.confidence - a.confidence || a.start - b.start || a.end - b.end,
  );
  const taken: Candidate[] = [];
  const perTopic = new Map<number, number>();
  while (taken.length < max) {
    let best: Candidate | null = null;
    let bestValue = -1;
    for (const candidate of ranked) {
      if (candidate.confidence < bestValue) break;
      if (taken.some((t) => candidate.start < t.end && t.start < candidate.end)) continue;
      const value = candidate.confidence * SAME_TOPIC_DISCOUNT ** (perTopic.get(candidate.topic) ?? 0);
      if (best === null || value > bestValue || (value === bestValue && earlierOrShorter(candidate, best))) {
        best = candidate;
        bestValue = value;
      }
    }
    if (best === null) break;
    taken.push(best);
    perTopic.set(best.topic, (perTopic.get(best.topic) ?? 0) + 1);
  }
  return taken.sort((a, b) => b.confidence - a.confidence || a.start - b.start);
}

function earlierOrShorter(a: Candidate, b: Candidate): boolean {
  return a.start < b.start || (a.start === b.start && a.end < b.end);
}
