import { guestStages, type GuestStage } from '../../../shared/api/guests.js';
import { stageIndex } from './stages.js';

/** Spec §1.9 targets: rates as fractions, time to publish in days. */
export const pipelineTargets = {
  responseRate: { target: 0.3, direction: 'above' },
  confirmationRate: { target: 0.7, direction: 'above' },
  showRate: { target: 0.95, direction: 'above' },
  timeToPublishDays: { target: 7, direction: 'below' },
} as const;
export type RatioName = keyof typeof pipelineTargets;

export interface PipelineGuest {
  id: string;
  /** The CRM's current stage. */
  stage: string;
  createdAt: string | null;
  /** The recording date (ISO), null when none is set. */
  scheduledDate: string | null;
  /** The bridge's stage history, oldest first. */
  history: ReadonlyArray<{ stage: string; enteredAt: string }>;
}

export interface PipelineRange {
  startDate?: string | undefined;
  endDate?: string | undefined;
}

type StageCounts = Record<GuestStage, number>;

export interface PipelineSummary {
  total: number;
  counts: StageCounts;
  current: StageCounts;
  otherStage: number;
  ratios: Record<RatioName, number | null>;
  targets: Record<RatioName, { target: number; direction: 'above' | 'below'; met: boolean | null }>;
  publishedSamples: number;
  showRateBasis: ShowRateBasis;
}

export interface ShowRateBasis {
  recorded: number;
  due: number;
  notYetDue: number;
  rule: string;
}

const DAY_MS = 86_400_000;

/**
 * When a guest's pipeline started: the first stage the bridge recorded for them, else the
 * CRM's createdAt. The date filter of GET /guests/pipeline selects on this.
 */
export function pipelineStart(guest: PipelineGuest): string | null {
  let first: string | null = null;
  for (const entry of guest.history) if (first === null || entry.enteredAt < first) first = entry.enteredAt;
  return first ?? guest.createdAt;
}

export function inRange(guest: PipelineGuest, range: PipelineRange): boolean {
  if (!range.startDate && !range.endDate) return true;
  const start = pipelineStart(guest);
  if (start === null) return false;
  const day = new Date(start).toISOString().slice(0, 10);
  return (!range.startDate || day >= range.startDate) && (!range.endDate || day <= range.endDate);
}

/** The furthest pipeline stage a guest has reached: its current stage or any stage in its history. */
export function reachedIndex(guest: PipelineGuest): number {
  let reached = stageIndex(guest.stage);
  for (const entry of guest.history) reached = Math.max(reached, stageIndex(entry.stage));
  return reached;
}

/** Days from entering Recorded to entering Published (the first Published, the last Recorded before it). */
export function daysToPublish(guest: PipelineGuest): number | null {
  const published = guest.history.find((entry) => entry.stage === 'Published');
  if (!published) return null;
  const publishedAt = Date.parse(published.enteredAt);
  let recordedAt: number | null = null;
  for (const entry of guest.history) {
    const at = Date.parse(entry.enteredAt);
    if (entry.stage === 'Recorded' && at <= publishedAt && (recordedAt === null || at > recordedAt))
      recordedAt = at;
  }
  return recordedAt === null ? null : (publishedAt - recordedAt) / DAY_MS;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const RECORDED = stageIndex('Recorded');
const SCHEDULED = stageIndex('Scheduled');

/**
 * Whether a scheduled guest's recording is due: it happened (Recorded or later), or its date has
 * passed. A recording still to come, or with no date, cannot be a no-show yet.
 */
export function recordingDue(guest: PipelineGuest, now: Date): boolean {
  if (reachedIndex(guest) >= RECORDED) return true;
  const at = guest.scheduledDate === null ? Number.NaN : Date.parse(guest.scheduledDate);
  return !Number.isNaN(at) && at <= now.getTime();
}

function showRateRule(notYetDue: number): string {
  const base = 'Recorded ÷ guests who reached Scheduled and whose recording date has passed';
  if (notYetDue === 0) return `${base}.`;
  return `${base}; ${notYetDue} recording${notYetDue === 1 ? '' : 's'} still to come ${notYetDue === 1 ? 'is' : 'are'} not counted.`;
}

const ratio = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

/**
 * Spec §1.9 ratios over cumulative counts: a guest counts at every stage up to the furthest it
 * reached. responseRate = Responded / all; confirmationRate = Confirmed / Responded;
 * showRate = Recorded / Scheduled, over the recordings that are due (`recordingDue`): a guest
 * whose recording date has not come yet is not a no-show; timeToPublishDays = median
 * Recorded → Published.
 */
export function summarisePipeline(
  guests: readonly PipelineGuest[],
  range: PipelineRange,
  now: Date,
): PipelineSummary {
  const selected = guests.filter((guest) => inRange(guest, range));
  const zero = (): StageCounts =>
    Object.fromEntries(guestStages.map((stage) => [stage, 0])) as Record<GuestStage, number>;
  const counts = zero();
  const current = zero();
  let otherStage = 0;
  let due = 0;
  const publishDays: number[] = [];
  for (const guest of selected) {
    const reached = reachedIndex(guest);
    guestStages.forEach((stage, index) => {
      if (reached >= index) counts[stage] += 1;
    });
    if (reached >= SCHEDULED && recordingDue(guest, now)) due += 1;
    const at = stageIndex(guest.stage);
    if (at >= 0) current[guestStages[at] as GuestStage] += 1;
    else otherStage += 1;
    const days = daysToPublish(guest);
    if (days !== null) publishDays.push(days);
  }
  const medianDays = median(publishDays);
  const ratios: Record<RatioName, number | null> = {
    responseRate: ratio(counts.Responded, selected.length),
    confirmationRate: ratio(counts.Confirmed, counts.Responded),
    showRate: ratio(counts.Recorded, due),
    timeToPublishDays: medianDays === null ? null : Math.round(medianDays * 10) / 10,
  };
  const targets = Object.fromEntries(
    (Object.keys(pipelineTargets) as RatioName[]).map((name) => {
      const { target, direction } = pipelineTargets[name];
      const value = ratios[name];
      const met = value === null ? null : direction === 'above' ? value > target : value < target;
      return [name, { target, direction, met }];
    }),
  ) as PipelineSummary['targets'];
  return {
    total: selected.length,
    counts,
    current,
    otherStage,
    ratios,
    targets,
    publishedSamples: publishDays.length,
    showRateBasis: {
      recorded: counts.Recorded,
      due,
      notYetDue: counts.Scheduled - due,
      rule: showRateRule(counts.Scheduled - due),
    },
  };
}
