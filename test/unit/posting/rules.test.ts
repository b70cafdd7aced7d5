import { describe, expect, it } from 'vitest';
import {
  appendHashtags,
  countChars,
  lengthChecks,
  mediaCheck,
  mediaKindOf,
  platformPreview,
  normalizeHashtag,
  reviewPost,
  timingWarnings,
} from '../../../shared/post-rules.js';

const now = new Date('2026-03-10T12:00:00.000Z');
const inMinutes = (m: number) => new Date(now.getTime() + m * 60_000).toISOString();

describe('countChars', () => {
  it('counts a microblog URL as 23 whatever its length', () => {
    const url = 'https://example.com/a/very/long/path/that/goes/on/and/on/and/on/forever.html';
    expect(countChars('microblog', `Listen: ${url}`)).toBe('Listen: '.length + 23);
  });
  it('counts wide characters as 2 on microblog, 1 code point elsewhere', () => {
    expect(countChars('microblog', '日本語')).toBe(6);
    expect(countChars('socialnet', '日本語')).toBe(3);
    expect(countChars('socialnet', '😀')).toBe(1);
  });
  it('reports each platform against its own limit', () => {
    const text = 'x'.repeat(300);
    expect(lengthChecks(text, ['microblog', 'socialnet'])).toEqual([
      { platform: 'microblog', count: 300, limit: 280, over: true },
      { platform: 'socialnet', count: 300, limit: 63_206, over: false },
    ]);
  });
});

describe('hashtags', () => {
  it('normalises and refuses what cannot be a hashtag', () => {
    expect(normalizeHashtag('#Launch')).toBe('Launch');
    expect(normalizeHashtag('  podcast ')).toBe('podcast');
    expect(normalizeHashtag('two words')).toBeNull();
    expect(normalizeHashtag('#')).toBeNull();
  });
  it('appends each once, skipping ones already in the text (any case)', () => {
    expect(appendHashtags('New episode #Podcast out', ['podcast', '#studio', 'Studio', 'live'])).toBe(
      'New episode #Podcast out #studio #live',
    );
    expect(appendHashtags('Plain', [])).toBe('Plain');
    expect(appendHashtags('Trailing space   ', ['a'])).toBe('Trailing space #a');
  });
});

describe('reviewPost', () => {
  it('accepts a valid draft and returns the text to send', () => {
    const review = reviewPost(
      { post: 'Hello', platforms: ['microblog'], hashtags: ['news'], scheduleDate: inMinutes(60) },
      { now },
    );
    expect(review.errors).toEqual([]);
    expect(review.warnings).toEqual([]);
    expect(review.text).toBe('Hello #news');
  });

  it('names the field and the rule for a post over a platform limit, hashtags included', () => {
    const review = reviewPost(
      { post: 'x'.repeat(275), platforms: ['microblog'], hashtags: ['abcdef'] },
      { now },
    );
    expect(review.errors.map((e) => e.message)).toEqual(['post: 283 characters, microblog allows 280']);
  });

  it('refuses duplicates, empty text and non-http media', () => {
    const review = reviewPost(
      {
        post: ' ',
        platforms: ['microblog', 'microblog'],
        mediaUrls: ['ftp://x/y.png', 'https://ok.example/a.png'],
      },
      { now },
    );
    expect(review.errors.map((e) => e.field)).toEqual(['post', 'platforms', 'mediaUrls.0']);
  });

  it('requires media on video and image platforms (DESIGN §6.8), judged from the extension', () => {
    const none = reviewPost({ post: 'clip', platforms: ['shortvideo'] }, { now });
    expect(none.errors).toEqual([
      {
        field: 'mediaUrls',
        rule: 'media-required',
        message: 'mediaUrls: shortvideo needs a video; none given',
        code: 'INVALID_MEDIA',
      },
    ]);
    const wrongKind = reviewPost(
      { post: 'clip', platforms: ['shortvideo'], mediaUrls: ['https://cdn.example/a.png'] },
      { now },
    );
    expect(wrongKind.errors.map((e) => e.message)).toEqual([
      'mediaUrls: shortvideo needs a video; https://cdn.example/a.png is an image',
    ]);
    const unknown = reviewPost(
      { post: 'photo', platforms: ['photogram'], mediaUrls: ['https://cdn.example/v/123'] },
      { now },
    );
    expect(unknown.errors).toEqual([]);
    expect(unknown.warnings).toEqual([
      'mediaUrls: photogram needs an image or a video; the kind of https://cdn.example/v/123 cannot be told from its extension',
    ]);
    expect(mediaCheck('photogram', ['https://cdn.example/a.mov']).verdict).toBe('ok');
    expect(mediaCheck('microblog', []).verdict).toBe('ok');
    expect(mediaKindOf('https://cdn.example/v/123')).toBe('unknown');
  });

  it('previews where each platform cuts the text: microblog by its weighted count', () => {
    const link = `https://studio.com/${'x'.repeat(60)}`;
    const text = `${'a'.repeat(250)} ${link} ${'b'.repeat(20)}`;
    const micro = platformPreview('microblog', text);
    expect(micro.count).toBe(250 + 1 + 23 + 1 + 20);
    expect(micro.kept).toBe(`${'a'.repeat(250)} ${link} ${'b'.repeat(5)}`);
    expect(micro.cut).toBe('b'.repeat(15));
    expect(platformPreview('socialnet', text)).toMatchObject({ kept: text, cut: '' });
    const wide = platformPreview('pinboard', '🎙️'.repeat(300));
    expect([...wide.kept].length).toBe(500);
  });

  it('an empty scheduleDate is INVALID_DATE, not "publish now"', () => {
    expect(
      reviewPost({ post: 'a', platforms: ['socialnet'], scheduleDate: '' }, { now }).errors,
    ).toMatchObject([{ field: 'scheduleDate', code: 'INVALID_DATE' }]);
  });

  it('a past date is INVALID_DATE', () => {
    const review = reviewPost({ post: 'a', platforms: ['socialnet'], scheduleDate: inMinutes(-1) }, { now });
    expect(review.errors).toMatchObject([{ field: 'scheduleDate', code: 'INVALID_DATE' }]);
  });

  it('warns under 10 minutes ahead and within 2 h of another post on the same platform', () => {
    const review = reviewPost(
      { post: 'a', platforms: ['socialnet', 'microblog'], scheduleDate: inMinutes(5) },
      {
        now,
        nearby: [
          { platforms: ['microblog'], at: inMinutes(65) },
          { platforms: ['photogram'], at: inMinutes(6) },
        ],
      },
    );
    expect(review.errors).toEqual([]);
    expect(review.warnings).toHaveLength(2);
    expect(review.warnings[0]).toContain('5 min ahead');
    expect(review.warnings[1]).toContain('microblog: another post goes out at');
    expect(review.warnings[1]).toContain('60 min apart');
  });

  it('no spacing warning at exactly 2 hours', () => {
    expect(
      timingWarnings(['microblog'], Date.parse(inMinutes(120)), now, [
        { platforms: ['microblog'], at: inMinutes(240) },
      ]),
    ).toEqual([]);
  });
});
