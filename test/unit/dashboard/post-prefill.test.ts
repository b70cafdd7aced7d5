import { describe, expect, it } from 'vitest';
import {
  postLinksOf,
  prefilledForm,
  type PostFormValues,
} from '../../../renderer/src/posting/post-form-values.js';

describe('the composer opened with a post from the address (issue #44.2: Post this clip)', () => {
  const empty: PostFormValues = {
    text: '',
    platforms: ['microblog'],
    hashtags: '',
    media: '',
    when: '2026-12-02T10:00',
    now: false,
  };

  it('takes text, media (one a line) and known platforms; leaves the rest as it was', () => {
    const params = new URLSearchParams([
      ['text', '“Our costs stayed under five percent.”'],
      ['media', 'https://media.example/a.mp4'],
      ['platform', 'shortvideo'],
      ['platform', 'myspace'],
    ]);
    expect(prefilledForm(params, empty)).toEqual({
      ...empty,
      text: '“Our costs stayed under five percent.”',
      media: 'https://media.example/a.mp4',
      platforms: ['shortvideo'],
    });
  });

  it('an address without them opens the empty form', () => {
    expect(prefilledForm(new URLSearchParams(), empty)).toEqual(empty);
  });

  it('takes the production and the clip the post links to; none when the address names none', () => {
    const params = new URLSearchParams([
      ['production', 'prod-12'],
      ['clip', 'clip-7'],
    ]);
    expect(postLinksOf(params)).toEqual({ contentProductionId: 'prod-12', clipId: 'clip-7' });
    expect(postLinksOf(new URLSearchParams([['production', '']]))).toEqual({});
  });
});
