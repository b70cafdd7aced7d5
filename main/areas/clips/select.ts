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
  let open = [...candidates].sort(
    (a, b) => b.confidence - a.confidence || a.start - b.start || a.end - b.end,
  );
  const taken: Candidate[] = [];
  const perTopic = new Map<number, number>();
  while (taken.length < max && open.length > 0) {
    let best = open[0]!;
    let bestValue = -1;
    for (const candidate of open) {
      if (candidate.confidence < bestValue) break;
      const value = candidate.confidence * SAME_TOPIC_DISCOUNT ** (perTopic.get(candidate.topic) ?? 0);
      if (value > bestValue || (value === bestValue && earlierOrShorter(candidate, best))) {
        best = candidate;
        bestValue = value;
      }
    }
    taken.push(best);
    perTopic.set(best.topic, (perTopic.get(best.topic) ?? 0) + 1);
    // What overlaps a taken clip can never be taken: drop it once instead of checking it every round.
    open = open.filter((c) => c.end <= best.start || best.end <= c.start);
  }
  return taken.sort((a, b) => b.confidence - a.confidence || a.start - b.start);
}

function earlierOrShorter(a: Candidate, b: Candidate): boolean {
  return a.start < b.start || (a.start === b.start && a.end < b.end);
}
