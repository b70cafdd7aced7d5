import { bestWindowSpanning, type ScoringInput } from './windows.js';

/** A live mark of the take the transcript belongs to (DESIGN §6.7): seconds from the take's start. */
export interface LiveMark {
  id: number;
  offsetS: number;
  label: string | null;
}

/** Sentences [from, to] pinned by one or more marks inside them. */
export interface PinnedWindow {
  from: number;
  to: number;
  marks: LiveMark[];
}

/** `hh:mm:ss` of a moment, as the reason and warnings write it ("marked live at 00:12:31"). */
export function formatMoment(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/**
 * Pins a window around each mark (DESIGN §6.6), marks in time order: the best 15–90 s window of
 * whole sentences spanning the marked moment, not overlapping the window pinned before; a mark
 * inside that window shares it. Where no 15–90 s window spans it (a short transcript), the
 * sentences around the moment are pinned as they are. At most `max` windows; marks past the
 * transcript's end, or beyond `max`, are named in `warnings`.
 */
export function pinMarks(
  input: ScoringInput,
  marks: readonly LiveMark[],
  max: number,
): { pinned: PinnedWindow[]; warnings: string[] } {
  const { sentences } = input;
  const pinned: PinnedWindow[] = [];
  const warnings: string[] = [];
  const transcriptEnd = sentences.at(-1)!.end;
  const ordered = [...marks].sort((a, b) => a.offsetS - b.offsetS || a.id - b.id);
  for (const mark of ordered) {
    const at = mark.offsetS;
    if (at > transcriptEnd) {
      warnings.push(
        `the mark at ${formatMoment(at)} is past the transcript's end (${formatMoment(transcriptEnd)}): not pinned`,
      );
      continue;
    }
    const last = pinned.at(-1);
    if (last && at <= sentences[last.to]!.end) {
      last.marks.push(mark);
      continue;
    }
    if (pinned.length >= max) {
      warnings.push(`the mark at ${formatMoment(at)} is not pinned: ${max} clips asked for, all pinned`);
      continue;
    }
    const minFrom = last ? last.to + 1 : 0;
    if (minFrom >= sentences.length) {
      warnings.push(
        `the mark at ${formatMoment(at)} is not pinned: no sentence is left after the clip before it`,
      );
      continue;
    }
    // A mark before the first words (or before the next free sentence) pins the clip starting there.
    const moment = Math.max(at, sentences[minFrom]!.start);
    const best = bestWindowSpanning(input, moment, minFrom);
    pinned.push(
      best
        ? { from: best.from, to: best.to, marks: [mark] }
        : { ...around(input, moment, minFrom), marks: [mark] },
    );
  }
  return { pinned, warnings };
}

/** The fewest sentences (from `minFrom` on) that span the moment `at`. */
function around(input: ScoringInput, at: number, minFrom: number): { from: number; to: number } {
  const { sentences } = input;
  let from = minFrom;
  while (from + 1 < sentences.length && sentences[from + 1]!.start <= at) from++;
  let to = from;
  while (to + 1 < sentences.length && sentences[to]!.end < at) to++;
  return { from, to };
}
