import { describe, expect, it } from 'vitest';
import {
  acceptsEvent,
  applyActivityFilters,
  isTypePrefix,
  readActivityFilters,
} from '../../../renderer/src/activity/filters.js';

/** The Activity page's filters in the hash route's search (issue #30.6), read back as written. */
describe('activity filters in the URL', () => {
  it('reads level, type and job status; drops what the page would not send', () => {
    expect(
      readActivityFilters(new URLSearchParams('level=error&type=posting&jobs=failed&q=nadia%20haddad')),
    ).toEqual({
      level: 'error',
      type: 'posting',
      q: 'nadia haddad',
      jobs: 'failed',
    });
    expect(
      readActivityFilters(new URLSearchParams(`level=loud&type=post%20ing&jobs=lost&q=${'x'.repeat(101)}`)),
    ).toEqual({
      level: null,
      type: '',
      q: '',
      jobs: null,
    });
    expect(readActivityFilters(new URLSearchParams('q=a')).q).toBe('');
    expect(readActivityFilters(new URLSearchParams(''))).toEqual({
      level: null,
      type: '',
      q: '',
      jobs: null,
    });
  });

  it('writes only set filters and keeps other params', () => {
    const params = new URLSearchParams('other=1&level=info');
    const next = applyActivityFilters(params, { type: 'job', level: null, jobs: 'done' });
    expect(next.toString()).toBe('other=1&type=job&jobs=done');
    expect(readActivityFilters(next)).toEqual({ level: null, type: 'job', q: '', jobs: 'done' });
    expect(params.toString()).toBe('other=1&level=info');
    expect(applyActivityFilters(next, { type: '' }).toString()).toBe('other=1&jobs=done');
  });

  it('a type filter is the start of the type, as the bridge answers typePrefix', () => {
    const filters = { level: null, type: 'posting', q: '', jobs: null };
    const event = (type: string, level: 'info' | 'error', message = 'Post “Teaser” scheduled') => ({
      type,
      level,
      message,
    });
    expect(acceptsEvent(filters, event('posting.scheduled', 'info'))).toBe(true);
    expect(acceptsEvent(filters, event('job.failed', 'error'))).toBe(false);
    expect(acceptsEvent({ ...filters, level: 'error' }, event('posting.failed', 'info'))).toBe(false);
    expect(acceptsEvent({ level: null, type: '', q: '', jobs: null }, event('job.done', 'info'))).toBe(true);
  });

  it('a text filter is text the message holds, ASCII case ignored, as the bridge answers q', () => {
    const filters = { level: null, type: '', q: 'teaser', jobs: null };
    expect(
      acceptsEvent(filters, { type: 'posting.scheduled', level: 'info', message: 'Post “TEASER”' }),
    ).toBe(true);
    expect(acceptsEvent(filters, { type: 'posting.scheduled', level: 'info', message: 'Post “Promo”' })).toBe(
      false,
    );
  });

  it('knows which type prefixes the bridge accepts', () => {
    expect(isTypePrefix('clips.draft-created')).toBe(true);
    expect(isTypePrefix('posting*')).toBe(false);
    expect(isTypePrefix('x'.repeat(101))).toBe(false);
  });
});
