import { describe, expect, it } from 'vitest';
import { activityText } from '../../../renderer/src/activity/activity-words.js';
import type { StoredActivityEvent } from '../../../shared/api/activity.js';

const event = (type: string, message: string, data: StoredActivityEvent['data']): StoredActivityEvent => ({
  id: 1,
  at: '2026-11-25T22:00:00.000Z',
  type,
  level: 'info',
  message,
  data,
});

describe('activity words', () => {
  it("shows the bridge's message as it is, its instants as local time with UTC beside them", () => {
    const text = activityText(
      event(
        'posting.scheduled',
        'Post “Tonight on the Studio Hour” scheduled for 2026-11-26T15:00:00.000Z on microblog',
        {
          subject: { kind: 'post', id: 'pst_8f2a', name: 'Tonight on the Studio Hour' },
          postsvcId: 'pst_8f2a',
          ledgerId: 5,
        },
      ),
    );
    expect(text).toMatch(
      /^Post “Tonight on the Studio Hour” scheduled for .+ \(2026-11-26 15:00 UTC\) on microblog$/,
    );
    expect(text).not.toContain('2026-11-26T15');
  });

  it('rewrites no word of the message, whatever ids its data holds', () => {
    const message = 'A CRM post failed: provider busy';
    expect(activityText(event('posting.failed', message, { socialPostId: '64ab01' }))).toBe(message);
    expect(activityText(event('job.retry', 'job 12 retried by the operator', { jobId: 12 }))).toBe(
      'Job 12 retried by the operator',
    );
  });
});
