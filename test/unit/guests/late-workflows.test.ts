import { describe, expect, it } from 'vitest';
import { lateWorkflowReason } from '../../../main/areas/guests/late-workflows.js';

const now = new Date('2026-12-02T10:00:00.000Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000).toISOString();

describe('lateWorkflowReason (DESIGN §6.9)', () => {
  it('a transition more than 24 h old is late, whatever the stage', () => {
    expect(
      lateWorkflowReason({ stage: 'Recorded', modifiedAt: hoursAgo(25), scheduledDate: null, now }),
    ).toBe('found 25 h after the guest moved to Recorded (2026-12-01 09:00 UTC at the latest)');
    expect(
      lateWorkflowReason({ stage: 'Recorded', modifiedAt: hoursAgo(23), scheduledDate: null, now }),
    ).toBeNull();
  });

  it('the scheduled date makes only the pre-appearance workflows late', () => {
    const past = hoursAgo(2);
    expect(
      lateWorkflowReason({ stage: 'Confirmed', modifiedAt: hoursAgo(1), scheduledDate: past, now }),
    ).toBe("found after the guest's scheduled date (2026-12-02 08:00 UTC)");
    expect(
      lateWorkflowReason({ stage: 'Scheduled', modifiedAt: hoursAgo(1), scheduledDate: past, now }),
    ).not.toBeNull();
    expect(
      lateWorkflowReason({ stage: 'Recorded', modifiedAt: hoursAgo(1), scheduledDate: past, now }),
    ).toBeNull();
    expect(
      lateWorkflowReason({ stage: 'Confirmed', modifiedAt: hoursAgo(1), scheduledDate: hoursAgo(-48), now }),
    ).toBeNull();
  });

  it('missing or unreadable times make nothing late', () => {
    expect(
      lateWorkflowReason({ stage: 'Confirmed', modifiedAt: null, scheduledDate: 'soon', now }),
    ).toBeNull();
  });
});
