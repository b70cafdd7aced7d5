import { describe, expect, it } from 'vitest';
import { isMassDisappearance, nextCursor, nextMark } from '../../../main/areas/webhooks/catchup-paging.js';

const page = (...times: string[]) => times.map((modifiedAt) => ({ modifiedAt }));

describe('catch-up paging (DESIGN §6.9)', () => {
  it('pages by key: the next page starts at the last modifiedAt seen', () => {
    const cursor = { from: '2026-03-02T09:00:00.000Z', offset: 0 };
    expect(nextCursor(cursor, page('2026-03-02T09:00:00.000Z', '2026-03-02T09:04:00.000Z'))).toEqual({
      from: '2026-03-02T09:04:00.000Z',
      offset: 0,
    });
  });

  it('pages a second that a whole page shares by offset', () => {
    const cursor = { from: '2026-03-02T09:00:00.000Z', offset: 200 };
    const same = page(...Array.from({ length: 200 }, () => '2026-03-02T09:00:00.000Z'));
    expect(nextCursor(cursor, same)).toEqual({ from: '2026-03-02T09:00:00.000Z', offset: 400 });
  });

  it('starts the next listing 2 min before the mark, never past a record left to its webhooks', () => {
    expect(nextMark(null, '2026-03-02T09:10:00.000Z', null)).toEqual({
      mark: '2026-03-02T09:10:00.000Z',
      listFrom: '2026-03-02T09:08:00.000Z',
    });
    expect(nextMark('2026-03-02T09:20:00.000Z', '2026-03-02T09:10:00.000Z', null).mark).toBe(
      '2026-03-02T09:20:00.000Z',
    );
    expect(nextMark(null, '2026-03-02T09:10:00.000Z', '2026-03-02T09:01:00.000Z')).toEqual({
      mark: '2026-03-02T09:10:00.000Z',
      listFrom: '2026-03-02T09:01:00.000Z',
    });
    expect(nextMark(null, null, null)).toEqual({ mark: null, listFrom: null });
  });

  it('a mass disappearance is more than 5 and more than 10 % of the tracked records', () => {
    expect(isMassDisappearance(6, 20)).toBe(true);
    expect(isMassDisappearance(5, 20)).toBe(false);
    expect(isMassDisappearance(6, 60)).toBe(false);
    expect(isMassDisappearance(7, 60)).toBe(true);
  });
});
