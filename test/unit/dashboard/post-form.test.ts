import { describe, expect, it } from 'vitest';
import { reviewPost } from '../../../shared/post-rules.js';
import { postFormNotes } from '../../../renderer/src/posting/post-form-notes.js';
import { anHourAhead, splitLines, splitTags } from '../../../renderer/src/posting/post-form-values.js';
import { toLocalInput } from '../../../renderer/src/posting/time.js';

/** Issue #37.5: what the composer and the Edit dialog share (PostForm), apart from React. */
describe('post form values', () => {
  it('reads hashtags apart by commas or spaces, and media links one a line', () => {
    expect(splitTags(' podcast, studio  live,,')).toEqual(['podcast', 'studio', 'live']);
    expect(splitTags('')).toEqual([]);
    expect(splitLines(' https://a.example/x.png \n\n  https://b.example/y.mp4\n')).toEqual([
      'https://a.example/x.png',
      'https://b.example/y.mp4',
    ]);
  });

  it('defaults a time to the next quarter hour an hour from now', () => {
    const at = (local: string) => new Date(local).getTime();
    expect(anHourAhead(at('2026-11-27T10:00:00'))).toBe('2026-11-27T11:00');
    expect(anHourAhead(at('2026-11-27T10:01:30'))).toBe('2026-11-27T11:15');
    expect(anHourAhead(at('2026-11-27T23:50:00'))).toBe(toLocalInput(new Date(at('2026-11-28T01:00:00'))));
  });
});

describe('postFormNotes', () => {
  const now = new Date('2026-11-27T10:00:00Z');

  it('lists the refusal, then the errors, then the warnings, each in words at its field', () => {
    const review = reviewPost(
      { post: 'x'.repeat(300), platforms: ['microblog'], scheduleDate: '2026-11-27T10:05:00.000Z' },
      { now },
    );
    const notes = postFormNotes({
      refusal: [{ field: 'platforms', index: null, text: 'Refused.' }],
      errors: review.errors,
      warnings: review.warnings,
      at: '2026-11-27T10:05:00.000Z',
    });
    expect(notes.map((n) => [n.field, n.tone])).toEqual([
      ['platforms', 'error'],
      ['post', 'error'],
      ['scheduleDate', 'warn'],
    ]);
    expect(notes[1]!.text).toBe('Too long for Microblog: 300 characters, it allows 280.');
  });

  it('leaves a platform’s media rule to MediaChecks', () => {
    const review = reviewPost(
      { post: 'x', platforms: ['photogram'], mediaUrls: [], scheduleDate: '2026-11-28T10:00:00.000Z' },
      { now },
    );
    expect(review.errors.some((e) => e.code === 'INVALID_MEDIA')).toBe(true);
    const notes = postFormNotes({
      refusal: [],
      errors: review.errors,
      warnings: ['mediaUrls: the kind of x cannot be told'],
      at: null,
    });
    expect(notes).toEqual([]);
  });
});
