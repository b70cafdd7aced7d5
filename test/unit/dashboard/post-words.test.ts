import { describe, expect, it } from 'vitest';
import { reviewPost, timingWarnings } from '../../../shared/post-rules.js';
import { formatLocal } from '../../../renderer/src/format.js';
import {
  fieldOfPath,
  issueWords,
  recordedErrorWords,
  refusalWords,
  warningWords,
} from '../../../renderer/src/posting/post-words.js';

/** Field names, ISO instants, API paths: what an operator must never read in a post form (issue #30.4). */
const RAW = /scheduleDate|mediaUrls|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|https?\(s\)/;
const now = new Date('2026-11-27T10:00:00Z');

describe('post-words: the rules and refusals in words, at their field (issue #30.4)', () => {
  it('reads the field from the path the bridge names, with a media link’s place', () => {
    expect(fieldOfPath('scheduleDate')).toEqual({ field: 'scheduleDate', index: null });
    expect(fieldOfPath('body.mediaUrls.2')).toEqual({ field: 'mediaUrls', index: 2 });
    expect(fieldOfPath('mediaUrls')).toEqual({ field: 'mediaUrls', index: null });
    expect(fieldOfPath('ledgerId')).toEqual({ field: null, index: null });
  });

  it('says a past time with local time and UTC, at the time field', () => {
    const { errors } = reviewPost(
      { post: 'x', platforms: ['microblog'], scheduleDate: '2026-11-26T20:00:00.000Z' },
      { now },
    );
    const words = issueWords(errors[0]!);
    expect(words.field).toBe('scheduleDate');
    expect(words.text).toBe(
      `That time has passed: ${formatLocal('2026-11-26T20:00:00.000Z')} (2026-11-26 20:00 UTC). Pick a later time.`,
    );
    expect(words.text).not.toMatch(RAW);
  });

  it('says a time 2 minutes ahead in words, with the time local and in UTC', () => {
    const at = '2026-11-27T10:02:00.000Z';
    const [lead] = timingWarnings(['microblog'], Date.parse(at), now, []);
    expect(lead).toMatch(/^scheduleDate is 2 min ahead/);
    const words = warningWords(lead!, at);
    expect(words).toEqual({
      field: 'scheduleDate',
      index: null,
      text: `The time is only 2 minutes from now (${formatLocal(at)} · 2026-11-27 10:02 UTC): at least 10 minutes ahead is recommended.`,
    });
  });

  it('says a post close by with its platform’s name and its time local and in UTC', () => {
    const [spacing] = timingWarnings(['photogram'], Date.parse('2026-11-28T09:30:00Z'), now, [
      { platforms: ['photogram'], at: '2026-11-28T09:00:00.000Z' },
    ]);
    const words = warningWords(spacing!);
    expect(words.field).toBe('scheduleDate');
    expect(words.text).toContain('Another Photogram post goes out');
    expect(words.text).toContain('2026-11-28 09:00 UTC');
    expect(words.text).toContain('30 minutes from this one');
    expect(words.text).not.toMatch(RAW);
  });

  it('puts a refused media link at its line, naming the link', () => {
    const { errors } = reviewPost(
      {
        post: 'x',
        platforms: ['microblog'],
        mediaUrls: ['https://a.example/a.png', 'ftp://cdn.example.com/b.png'],
      },
      { now },
    );
    const words = issueWords(errors[0]!);
    expect(words).toEqual({
      field: 'mediaUrls',
      index: 1,
      text: '“ftp://cdn.example.com/b.png” is not a web address: a media link starts with https:// or http://.',
    });
  });

  it('words the length, platform and hashtag rules with the platforms’ names', () => {
    const { errors } = reviewPost(
      { post: 'x'.repeat(300), platforms: ['microblog'], hashtags: ['two words'] },
      { now },
    );
    const texts = errors.map((e) => issueWords(e));
    expect(texts).toContainEqual({
      field: 'hashtags',
      index: null,
      text: expect.stringContaining('“two words” is not a hashtag'),
    });
    expect(texts).toContainEqual({
      field: 'post',
      index: null,
      text: 'Too long for Microblog: 300 characters, it allows 280.',
    });
    const none = reviewPost({ post: 'x', platforms: [] }, { now });
    expect(issueWords(none.errors[0]!)).toEqual({
      field: 'platforms',
      index: null,
      text: 'Choose at least one platform.',
    });
  });

  it('places a refusal by its details, else by the field its error starts with', () => {
    // INVALID_DATE carries no details: the field is the one the error names (DESIGN §4).
    expect(
      refusalWords({
        code: 'INVALID_DATE',
        message: 'scheduleDate: 2026-11-26T20:00:00.000Z is in the past (now 2026-11-27T10:00:00.000Z)',
      }),
    ).toEqual([
      {
        field: 'scheduleDate',
        index: null,
        text: `That time has passed: ${formatLocal('2026-11-26T20:00:00.000Z')} (2026-11-26 20:00 UTC). Pick a later time.`,
      },
    ]);
    // VALIDATION_ERROR: every issue of its details, each at its own field.
    const refused = refusalWords({
      code: 'VALIDATION_ERROR',
      message: 'post: must not be empty; mediaUrls.0: "cdn/x.png" is not an http(s) URL',
      details: [
        { field: 'post', rule: 'required', message: 'post: must not be empty' },
        { field: 'mediaUrls.0', rule: 'http-url', message: 'mediaUrls.0: "cdn/x.png" is not an http(s) URL' },
      ],
    });
    expect(refused.map((r) => [r.field, r.index])).toEqual([
      ['post', null],
      ['mediaUrls', 0],
    ]);
    expect(refused.map((r) => r.text).join(' ')).not.toMatch(RAW);
    // A platform's media rule, with the platform's name.
    expect(
      refusalWords({
        code: 'INVALID_MEDIA',
        message: 'mediaUrls: videosite needs a video; none given',
        details: [
          {
            field: 'mediaUrls',
            rule: 'media-required',
            message: 'mediaUrls: videosite needs a video; none given',
          },
        ],
      })[0]?.text,
    ).toBe('Videosite needs a video: add a media link.');
    // The bridge's own words for a rule no wording knows, its instants made local.
    expect(
      refusalWords({
        code: 'INVALID_DATE',
        message:
          'scheduleDate: this post was due at 2026-11-26T20:00:00.000Z, which has passed; edit it to give it a new time',
      })[0]?.text,
    ).toContain('2026-11-26 20:00 UTC');
  });

  it('leaves refusals that name no post field to the form as a whole', () => {
    expect(refusalWords({ code: 'QUOTA_EXCEEDED', message: 'daily quota of 10 posts used' })).toEqual([]);
    expect(
      refusalWords({ code: 'VALIDATION_ERROR', message: 'give exactly one of socialPostId and ledgerId' }),
    ).toEqual([]);
    expect(refusalWords({ code: 'CONFLICT', message: 'scheduleDate: moved elsewhere' })).toEqual([]);
  });

  it('words a failure recorded on a CRM post by its record’s field names', () => {
    expect(fieldOfPath('scheduledAt')).toEqual({ field: 'scheduleDate', index: null });
    expect(recordedErrorWords('mediaUrl: photogram needs an image or a video; none given')).toBe(
      'Photogram needs an image or a video: add a media link.',
    );
    expect(
      recordedErrorWords(
        'scheduledAt: 2026-11-26T20:00:00.000Z is in the past (now 2026-11-27T10:00:00.000Z)',
      ),
    ).toContain('That time has passed');
    // The provider's own refusal naming its field (issue #40.4): the same words as the bridge's.
    expect(recordedErrorWords('photogram requires an image or a video in mediaUrls.')).toBe(
      'Photogram needs an image or a video: add a media link.',
    );
    // Not a post field (a provider's own words): kept, its instants made local.
    expect(recordedErrorWords('provider timeout at 2026-11-26T20:00:00.000Z')).toContain(
      '2026-11-26 20:00 UTC',
    );
  });
});
