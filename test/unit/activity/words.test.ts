import { describe, expect, it } from 'vitest';
import { activityText, buildNameBook } from '../../../renderer/src/activity/activity-words.js';
import type { StoredActivityEvent } from '../../../shared/api/activity.js';

const event = (type: string, message: string, data: unknown): StoredActivityEvent =>
  ({ id: 1, at: '2026-11-25T22:00:00.000Z', type, level: 'info', message, data }) as StoredActivityEvent;

const book = buildNameBook([
  {
    data: [
      {
        key: 'api:5',
        post: 'Tonight on the Studio Hour: our friends from the harbour',
        name: null,
        ledgerId: 5,
        socialPostId: null,
        postsvcId: 'pst_8f2a',
        platformStates: [{ platform: 'microblog', postsvcId: 'pst_8f2a' }],
      },
      {
        key: 'crm:64ab',
        post: 'x',
        name: 'Launch teaser',
        ledgerId: null,
        socialPostId: '64ab01',
        postsvcId: null,
        platformStates: [],
      },
    ],
  },
  [{ id: 'bc77', name: 'Live from the harbour', streamhostId: 'sh_1' }],
]);

describe('activity words', () => {
  it('names a post by its text instead of the provider id, and shows local time with UTC', () => {
    const text = activityText(
      event('posting.scheduled', 'post pst_8f2a scheduled for 2026-11-26T15:00:00.000Z on microblog', {
        postsvcId: 'pst_8f2a',
        ledgerId: 5,
      }),
      book,
    );
    expect(text).not.toContain('pst_8f2a');
    expect(text).toContain('“Tonight on the Studio Hour');
    expect(text).toContain('2026-11-26 15:00 UTC');
    expect(text).not.toContain('2026-11-26T15');
  });

  it('drops "(id)" after a name and names CRM posts', () => {
    expect(
      activityText(
        event(
          'posting.cancelled',
          'SocialPost "Launch teaser" (64ab01) back to Draft: provider post cancelled',
          {
            socialPostId: '64ab01',
          },
        ),
        book,
      ),
    ).toBe('SocialPost "Launch teaser" back to Draft: provider post cancelled');
    expect(
      activityText(
        event('posting.retry', 'SocialPost 64ab01: provider busy; trying again in 30 s', {
          socialPostId: '64ab01',
          event: 'social-updated',
        }),
        book,
      ),
    ).toBe('CRM post “Launch teaser”: provider busy; trying again in 30 s');
  });

  it('uses a plain noun when the record is not loaded, and keeps numbers that are not ids', () => {
    expect(
      activityText(
        event('broadcast.deleted', 'broadcast Harbour: broadcast sh_9 deleted and 1 CRM record(s) removed', {
          broadcastId: 'sh_9',
          recordIds: ['r1'],
        }),
      ),
    ).toBe('Broadcast Harbour: the broadcast deleted and 1 CRM record(s) removed');
    expect(activityText(event('job.retry', 'job 12 retried by the operator', { jobId: 12 }))).toBe(
      'A failed background job was sent again by the operator',
    );
    expect(
      activityText(
        event('job.failed', 'publish PlatformPublish 65c1 (webhook): gateway refused', {
          jobId: 3,
          kind: 'publishing.publish',
          attempts: 5,
        }),
      ),
    ).toBe('Publishing a publish record: gateway refused');
  });
});
