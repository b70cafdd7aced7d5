import { describe, expect, it } from 'vitest';
import type { ProviderHistoryItem } from '../../../main/peers/postsvc-wire.js';
import { providerVerdict } from '../../../main/areas/posting/provider-state.js';

const item = (over: Partial<ProviderHistoryItem>): ProviderHistoryItem => ({
  id: 'p1',
  post: 'text',
  platforms: ['microblog', 'socialnet'],
  postIds: [],
  errors: [],
  status: 'scheduled',
  ...over,
});
const row: { platforms: ('microblog' | 'socialnet')[] } = { platforms: ['microblog', 'socialnet'] };

describe('providerVerdict (DESIGN §6.9: what the provider says of a post now)', () => {
  it('is not final while a platform is still scheduled', () => {
    const verdict = providerVerdict(
      row,
      item({
        status: 'scheduled',
        postIds: [
          { platform: 'microblog', status: 'success', id: '1', postUrl: 'https://m.example/1' },
          { platform: 'socialnet', status: 'scheduled' },
        ],
      }),
    );
    expect(verdict).toMatchObject({
      final: false,
      published: ['microblog'],
      postUrls: ['https://m.example/1'],
    });
  });

  it('is final with every platform published or failed, the failure in the platform’s words', () => {
    const verdict = providerVerdict(
      row,
      item({
        status: 'error',
        postIds: [
          { platform: 'microblog', status: 'success', id: '1', postUrl: 'https://m.example/1' },
          { platform: 'socialnet', status: 'error' },
        ],
        errors: [{ platform: 'socialnet', code: 137, message: 'Page removed.' }],
      }),
    );
    expect(verdict).toMatchObject({
      final: true,
      status: 'error',
      published: ['microblog'],
      failure: 'socialnet: Page removed.',
    });
  });

  it('a deleted post is final and live nowhere', () => {
    const verdict = providerVerdict(
      row,
      item({ status: 'deleted', postIds: [{ platform: 'microblog', status: 'deleted' }] }),
    );
    expect(verdict).toMatchObject({ final: true, status: 'deleted', published: [] });
  });
});
