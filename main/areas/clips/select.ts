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
  const overlapping = overlapFinder(candidates);
  // What overlaps a taken clip can never be taken: marked once, when the clip is taken, found by
  // start time (~45,000 windows for three hours; filtering them all after every pick took as
  // long as sorting them).
  const dropped = new Set<Candidate>();
  const taken: Candidate[] = [];
  const perTopic = new Map<number, number>();
  let first = 0;
  while (taken.length < max) {
    while (first < ranked.length && dropped.has(ranked[first]!)) first++;
    let best: Candidate | undefined;
    let bestValue = -1;
    for (let at = first; at < ranked.length; at++) {
      const candidate = ranked[at]!;
      if (candidate.confidence < bestValue) break;
      if (dropped.has(candidate)) continue;
      const value = candidate.confidence * SAME_TOPIC_DISCOUNT ** (perTopic.get(candidate.topic) ?? 0);
      if (value > bestValue || (value === bestValue && earlierOrShorter(candidate, best!))) {
        best = candidate;
        bestValue = value;
      }
    }
    if (best === undefined) break;
    taken.push(best);
    perTopic.set(best.topic, (perTopic.get(best.topic) ?? 0) + 1);
    for (const window of overlapping(best)) dropped.add(window);
  }
  return taken.sort((a, b) => b.confidence - a.confidence || a.start - b.start);
}

/**
 * The windows overlapping a clip (the clip itself included): windows by start time (as
 * scoreWindows lists them; sorted here otherwise), from the first that can reach into the clip
 * (no window is longer than the longest) to the last that starts before it ends.
 */
function overlapFinder(windows: readonly Candidate[]): (clip: Candidate) => Candidate[] {
  const inOrder = windows.every((w, i) => i === 0 || windows[i - 1]!.start <= w.start);
  const byStart = inOrder ? windows : [...windows].sort((a, b) => a.start - b.start);
  const longest = windows.reduce((most, w) => Math.max(most, w.end - w.start), 0);
  return (clip) => {
    let low = 0;
    let high = byStart.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (byStart[middle]!.start <= clip.start - longest) low = middle + 1;
      else high = middle;
    }
    const found: Candidate[] = [];
    for (let i = low; i < byStart.length && byStart[i]!.start < clip.end; i++) {
      if (byStart[i]!.end > clip.start) found.push(byStart[i]!);
    }
    return found;
  };
}

function earlierOrShorter(a: Candidate, b: Candidate): boolean {
  return a.start < b.start || (a.start === b.start && a.end < b.end);
}
