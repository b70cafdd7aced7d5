import { describe, expect, it } from 'vitest';
import { demoStageHistory } from '../../../main/sandbox/demo-guest-history.js';
import {
  daysToPublish,
  inRange,
  median,
  reachedIndex,
  summarisePipeline,
  type PipelineGuest,
} from '../../../main/areas/guests/pipeline.js';
import { decideStage, workflowFor } from '../../../main/areas/guests/stages.js';

describe('stage decisions (DESIGN §6.1.5)', () => {
  it('starts nothing for an unrelated change, a redelivery or the echo: the stage is the one known', () => {
    expect(decideStage({ itemStage: undefined, currentStage: 'Confirmed', lastKnown: 'Confirmed' })).toEqual({
      kind: 'unchanged',
      stage: 'Confirmed',
    });
    expect(
      decideStage({ itemStage: 'Confirmed', currentStage: 'Confirmed', lastKnown: 'Confirmed' }).kind,
    ).toBe('unchanged');
  });

  it('sees a transition against the last known stage, with or without the stage in the item', () => {
    expect(
      decideStage({ itemStage: 'Confirmed', currentStage: 'Confirmed', lastKnown: 'Responded' }),
    ).toEqual({
      kind: 'transition',
      from: 'Responded',
      to: 'Confirmed',
    });
    // Missed event: a notes update reveals the move.
    expect(decideStage({ itemStage: undefined, currentStage: 'Scheduled', lastKnown: 'Confirmed' })).toEqual({
      kind: 'transition',
      from: 'Confirmed',
      to: 'Scheduled',
    });
  });

  it('on first sight: a stage change is a transition, any other update only a baseline', () => {
    expect(decideStage({ itemStage: 'Recorded', currentStage: 'Recorded', lastKnown: null })).toEqual({
      kind: 'transition',
      from: null,
      to: 'Recorded',
    });
    expect(decideStage({ itemStage: undefined, currentStage: 'Recorded', lastKnown: null })).toEqual({
      kind: 'baseline',
      stage: 'Recorded',
    });
  });

  it('treats an item whose stage is no longer the guest’s as stale (passed through)', () => {
    expect(
      decideStage({ itemStage: 'Confirmed', currentStage: 'Scheduled', lastKnown: 'Responded' }),
    ).toEqual({
      kind: 'stale',
      passed: 'Confirmed',
      current: 'Scheduled',
      recordPassed: true,
    });
    expect(
      decideStage({ itemStage: 'Confirmed', currentStage: 'Scheduled', lastKnown: 'Confirmed' }),
    ).toMatchObject({ kind: 'stale', recordPassed: false });
  });

  it('maps the four workflow stages to their workflow and the others to none (spec §3.3)', () => {
    expect(
      ['Outreach', 'Responded', 'Confirmed', 'Scheduled', 'Recorded', 'Published'].map(workflowFor),
    ).toEqual([null, null, 'guest-confirmed', 'guest-scheduled', 'guest-recorded', 'guest-published']);
  });
});

/** "Now" for the ratios: day 31 of the fixtures' calendar. */
const NOW = new Date(Date.UTC(2026, 0, 1) + 31 * 86_400_000);
const at = (day: number) => new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString();
const guest = (
  id: string,
  stage: string,
  stages: Array<[string, number]>,
  createdAt?: string,
  scheduledDate?: string,
): PipelineGuest => ({
  id,
  stage,
  createdAt: createdAt ?? null,
  scheduledDate: scheduledDate ?? null,
  history: stages.map(([s, day]) => ({ stage: s, enteredAt: at(day) })),
});

describe('pipeline ratios (spec §1.9)', () => {
  const guests = [
    guest('a', 'Outreach', [['Outreach', 0]]),
    guest('b', 'Outreach', [['Outreach', 1]]),
    guest('c', 'Responded', [
      ['Outreach', 1],
      ['Responded', 3],
    ]),
    // Its recording date (day 8) has passed and it was not recorded: a no-show.
    guest(
      'd',
      'Scheduled',
      [
        ['Outreach', 2],
        ['Responded', 4],
        ['Confirmed', 5],
        ['Scheduled', 6],
      ],
      undefined,
      at(8),
    ),
    guest('e', 'Published', [
      ['Outreach', 2],
      ['Responded', 3],
      ['Confirmed', 4],
      ['Scheduled', 5],
      ['Recorded', 10],
      ['Published', 14],
    ]),
    guest('f', 'Published', [
      ['Outreach', 3],
      ['Recorded', 20],
      ['Published', 30],
    ]),
    // Moved back: it still reached Confirmed.
    guest('g', 'Responded', [
      ['Outreach', 5],
      ['Responded', 6],
      ['Confirmed', 7],
      ['Responded', 8],
    ]),
  ];

  it('counts cumulatively and computes the four ratios with their targets', () => {
    const summary = summarisePipeline(guests, {}, NOW);
    expect(summary.total).toBe(7);
    expect(summary.counts).toEqual({
      Outreach: 7,
      Responded: 5,
      Confirmed: 4,
      Scheduled: 3,
      Recorded: 2,
      Published: 2,
    });
    expect(summary.current).toEqual({
      Outreach: 2,
      Responded: 2,
      Confirmed: 0,
      Scheduled: 1,
      Recorded: 0,
      Published: 2,
    });
    expect(summary.ratios).toEqual({
      responseRate: 0.7143,
      confirmationRate: 0.8,
      showRate: 0.6667,
      timeToPublishDays: 7,
    });
    expect(summary.publishedSamples).toBe(2);
    expect(summary.showRateBasis).toEqual({
      recorded: 2,
      due: 3,
      notYetDue: 0,
      rule: 'Recorded ÷ guests who reached Scheduled and whose recording date has passed.',
    });
    expect(summary.targets).toEqual({
      responseRate: { target: 0.3, direction: 'above', met: true },
      confirmationRate: { target: 0.7, direction: 'above', met: true },
      showRate: { target: 0.95, direction: 'above', met: false },
      // Exactly 7 days is not under 7.
      timeToPublishDays: { target: 7, direction: 'below', met: false },
    });
  });

  it('show rate: a recording still to come, or with no date, is not a no-show', () => {
    const scheduled = [
      ['Outreach', 0],
      ['Responded', 1],
      ['Confirmed', 2],
      ['Scheduled', 3],
    ] as Array<[string, number]>;
    const summary = summarisePipeline(
      [
        guest('past', 'Scheduled', scheduled, undefined, at(10)),
        guest('soon', 'Scheduled', scheduled, undefined, at(40)),
        guest('undated', 'Scheduled', scheduled),
        guest('done', 'Recorded', [...scheduled, ['Recorded', 5]], undefined, at(50)),
      ],
      {},
      NOW,
    );
    expect(summary.counts.Scheduled).toBe(4);
    expect(summary.ratios.showRate).toBe(0.5);
    expect(summary.showRateBasis).toEqual({
      recorded: 1,
      due: 2,
      notYetDue: 2,
      rule: 'Recorded ÷ guests who reached Scheduled and whose recording date has passed; 2 recordings still to come are not counted.',
    });
  });

  it('answers null (not 0, not NaN) when a ratio has no denominator, and met null', () => {
    const summary = summarisePipeline([guest('a', 'Outreach', [['Outreach', 0]])], {}, NOW);
    expect(summary.ratios).toEqual({
      responseRate: 0,
      confirmationRate: null,
      showRate: null,
      timeToPublishDays: null,
    });
    expect(summary.targets.showRate.met).toBeNull();
    expect(summarisePipeline([], {}, NOW).ratios.responseRate).toBeNull();
  });

  it('filters on the pipeline start: first recorded stage, else createdAt, inclusive days', () => {
    expect(inRange(guests[0] as PipelineGuest, { startDate: '2026-01-01', endDate: '2026-01-01' })).toBe(
      true,
    );
    expect(inRange(guests[1] as PipelineGuest, { startDate: '2026-01-01', endDate: '2026-01-01' })).toBe(
      false,
    );
    const noHistory = guest('x', 'Outreach', [], '2026-02-03T23:59:00.000Z');
    expect(inRange(noHistory, { startDate: '2026-02-03' })).toBe(true);
    expect(inRange(noHistory, { endDate: '2026-02-02' })).toBe(false);
    expect(inRange(guest('y', 'Outreach', []), { startDate: '2026-01-01' })).toBe(false);
    expect(summarisePipeline(guests, { startDate: '2026-01-03', endDate: '2026-01-04' }, NOW).total).toBe(3);
  });

  it('takes the current stage into the furthest reached, and the last Recorded before the first Published', () => {
    expect(reachedIndex(guest('x', 'Recorded', [['Outreach', 0]]))).toBe(4);
    expect(reachedIndex(guest('x', 'Archived', []))).toBe(-1);
    expect(
      daysToPublish(
        guest('x', 'Published', [
          ['Recorded', 0],
          ['Scheduled', 1],
          ['Recorded', 2],
          ['Published', 5],
          ['Published', 9],
        ]),
      ),
    ).toBe(3);
    expect(daysToPublish(guest('x', 'Published', [['Published', 5]]))).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe('demo stage history (sandbox)', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const guests = [
    { id: 'g1', name: 'Marcus Bell', stage: 'Published', scheduledDate: '2026-01-27T15:00:00.000Z' },
    { id: 'g2', name: 'Ravi Patel', stage: 'Confirmed', scheduledDate: '2026-03-31T15:00:00.000Z' },
    { id: 'g3', name: 'Priya Raman', stage: 'Outreach', scheduledDate: null },
    { id: 'g4', name: 'Nobody', stage: 'Archived', scheduledDate: null },
  ];

  it('is deterministic, ordered, in the past and ends at each guest’s current stage', () => {
    const history = demoStageHistory(guests, now);
    expect(demoStageHistory(guests, now)).toEqual(history);
    for (const id of ['g1', 'g2', 'g3']) {
      const own = history.filter((e) => e.guestId === id);
      const times = own.map((e) => Date.parse(e.enteredAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(Math.max(...times)).toBeLessThan(now.getTime());
      expect(own[0]).toMatchObject({ stage: 'Outreach', previous: null });
      expect(own.at(-1)?.stage).toBe(guests.find((g) => g.id === id)?.stage);
    }
    expect(history.filter((e) => e.guestId === 'g1')).toHaveLength(6);
    expect(history.some((e) => e.guestId === 'g4')).toBe(false);
  });

  it('publishes 3 to 6 days after recording, so the time-to-publish target is meaningful', () => {
    const history = demoStageHistory(guests, now).filter((e) => e.guestId === 'g1');
    const recorded = Date.parse(history.find((e) => e.stage === 'Recorded')?.enteredAt ?? '');
    const published = Date.parse(history.find((e) => e.stage === 'Published')?.enteredAt ?? '');
    const days = (published - recorded) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(2.9);
    expect(days).toBeLessThanOrEqual(6.5);
  });
});
