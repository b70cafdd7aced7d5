import { describe, expect, it } from 'vitest';
import type { PostView } from '../../../shared/api/posting.js';
import {
  calendarState,
  dropTime,
  homeTarget,
  judgeMove,
  monthDays,
  neighbourTarget,
  postsByDay,
  postTitle,
  whyNotMovable,
} from '../../../renderer/src/posting/calendar/model.js';

/** Issue #31: the calendar's pure rules (renderer/src/posting/calendar/model.ts). */

const at = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

function post(overrides: Partial<PostView> = {}): PostView {
  return {
    key: 'api:1',
    source: 'api',
    socialPostId: null,
    ledgerId: 1,
    name: null,
    contentProductionId: null,
    contentProductionName: null,
    clipId: null,
    status: 'scheduled',
    crmStatus: null,
    post: 'Hello',
    platforms: ['socialnet'],
    platformStates: [],
    mediaUrls: [],
    scheduleDate: at(2026, 12, 2, 9).toISOString(),
    publishAt: at(2026, 12, 2, 9).toISOString(),
    postsvcId: 'p1',
    error: null,
    confirmation: null,
    liveHold: null,
    ...overrides,
  };
}

const now = at(2026, 12, 1, 12).getTime();

describe('calendar model', () => {
  it('shows six Monday-first weeks around the month', () => {
    const days = monthDays(at(2026, 12, 15));
    expect(days).toHaveLength(42);
    expect(days[0]!.getDay()).toBe(1);
    expect(days[0]!.getTime()).toBe(at(2026, 11, 30).getTime());
  });

  it('names a scheduled post past its time as due, and moves only a scheduled post still ahead', () => {
    expect(calendarState(post(), now)).toBe('scheduled');
    expect(whyNotMovable(post(), now)).toBeNull();
    const late = post({ publishAt: at(2026, 12, 1, 11).toISOString() });
    expect(calendarState(late, now)).toBe('due');
    expect(whyNotMovable(late, now)).toMatch(/^Due/);
    expect(whyNotMovable(post({ status: 'published' }), now)).toMatch(/^Published/);
    expect(whyNotMovable(post({ status: 'cancelled' }), now)).toMatch(/^Cancelled/);
    expect(whyNotMovable(post({ ledgerId: null }), now)).toMatch(/^Not sent through this bridge/);
  });

  it('a day keeps the time of day; a week step is 15 minutes; arrows walk days, weeks and steps', () => {
    const p = post();
    expect(dropTime('day:2026-12-05', p.publishAt!)!.getTime()).toBe(at(2026, 12, 5, 9).getTime());
    expect(dropTime('slot:2026-12-05:555', p.publishAt!)!.getTime()).toBe(at(2026, 12, 5, 9, 15).getTime());
    expect(dropTime('elsewhere', p.publishAt!)).toBeNull();
    expect(homeTarget('week', at(2026, 12, 2, 9, 20).toISOString())).toBe('slot:2026-12-02:555');
    expect(neighbourTarget('day:2026-12-31', 'right')).toBe('day:2027-01-01');
    expect(neighbourTarget('day:2026-12-02', 'up')).toBe('day:2026-11-25');
    expect(neighbourTarget('slot:2026-12-02:555', 'down')).toBe('slot:2026-12-02:570');
    expect(neighbourTarget('slot:2026-12-02:0', 'up')).toBeNull();
  });

  it('groups posts by local day in time order', () => {
    const late = post({ key: 'b', publishAt: at(2026, 12, 2, 18).toISOString() });
    const early = post({ key: 'a', publishAt: at(2026, 12, 2, 7).toISOString() });
    expect(
      postsByDay([late, early])
        .get('2026-12-02')!
        .map((p) => p.key),
    ).toEqual(['a', 'b']);
  });

  it('refuses a time that has passed and a day with no quota left, in words; else asks with the warnings', () => {
    const p = post();
    expect(judgeMove({ post: p, at: at(2026, 11, 30, 9) }, { now, posts: [p], quotaLeft: 5 })).toEqual({
      kind: 'refused',
      reason: 'That day has passed: a post moves only to a time ahead.',
    });
    expect(judgeMove({ post: p, at: at(2026, 12, 1, 9) }, { now, posts: [p], quotaLeft: 5 })).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/^That time today has passed/),
    });
    expect(judgeMove({ post: p, at: at(2026, 12, 3, 9) }, { now, posts: [p], quotaLeft: 0 })).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/quota is used up/),
    });
    expect(judgeMove({ post: p, at: new Date(p.publishAt!) }, { now, posts: [p], quotaLeft: 5 })).toEqual({
      kind: 'same',
    });
    // Its own old time is no neighbour; another post on the same platform an hour away is.
    const other = post({ key: 'api:2', publishAt: at(2026, 12, 3, 10).toISOString() });
    const verdict = judgeMove({ post: p, at: at(2026, 12, 3, 9) }, { now, posts: [p, other], quotaLeft: 5 });
    expect(verdict).toMatchObject({ kind: 'ask', quotaLeft: 5 });
    expect(verdict.kind === 'ask' && verdict.warnings).toEqual([
      expect.stringMatching(/^socialnet: another post goes out at .* \(60 min apart\)/),
    ]);
    const alone = judgeMove({ post: p, at: at(2026, 12, 2, 10) }, { now, posts: [p], quotaLeft: 5 });
    expect(alone).toEqual({ kind: 'ask', warnings: [], quotaLeft: 5 });
  });

  it('on premium and business a move is made in place (issue #36.3): no quota left does not stop it', () => {
    const p = post();
    for (const plan of ['premium', 'business'])
      expect(
        judgeMove({ post: p, at: at(2026, 12, 3, 9) }, { now, posts: [p], quotaLeft: 0, plan }),
      ).toMatchObject({ kind: 'ask' });
    expect(
      judgeMove({ post: p, at: at(2026, 12, 3, 9) }, { now, posts: [p], quotaLeft: 0, plan: 'free' }),
    ).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/quota is used up/) });
  });
});

describe('postTitle (issue #41.5: a move dialog named the post cut mid-word)', () => {
  it('is the CRM name when the post has one', () => {
    expect(postTitle({ name: 'Reminder · Microblog', post: 'Next week: Nadia Haddad on radio' })).toBe(
      'Reminder · Microblog',
    );
  });
  it('is a short text whole', () => {
    expect(postTitle({ name: null, post: 'Studio tour: the new panels' })).toBe(
      'Studio tour: the new panels',
    );
  });
  it('ends a long text on a whole word, marked as going on', () => {
    const text = 'Live Q&A this week! Bring your questions about running a small studio.';
    expect(text.slice(0, 40)).toBe('Live Q&A this week! Bring your questions');
    expect(postTitle({ name: null, post: `${text.slice(0, 38)}xyz more` })).toBe(
      'Live Q&A this week! Bring your…',
    );
    expect(
      postTitle({ name: null, post: 'Editing is writing. David Mensah on paper edits and pacing' }),
    ).toBe('Editing is writing. David Mensah on…');
  });
  it('cuts a text without spaces where it must', () => {
    expect(postTitle({ name: null, post: 'x'.repeat(60) })).toBe(`${'x'.repeat(40)}…`);
  });
});
