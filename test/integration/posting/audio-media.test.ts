import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * DESIGN §6.8, issue #30.6: a known audio extension is neither an image nor a video, so Photogram
 * and Videosite refuse an .mp3 before the provider is called (it was only an "unknown kind" warning).
 */
let bridge: TestBridge;
beforeAll(async () => {
  bridge = await startTestBridge({ BRIDGE_SANDBOX: '1', RECORDER_OBS_URL: 'none' });
});
afterAll(() => bridge.close());

describe('an audio file as the media of a platform that needs an image or a video', () => {
  for (const platform of ['photogram', 'videosite']) {
    it(`${platform}: 400 INVALID_MEDIA naming the platform and the file`, async () => {
      const answer = await bridge.call('POST', '/postsvc/schedule', {
        body: {
          post: `Episode audio for ${platform}`,
          platforms: [platform],
          mediaUrls: ['https://cdn.example.com/episode-12.mp3'],
          scheduleDate: new Date(Date.now() + 30 * 3_600_000).toISOString(),
        },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('INVALID_MEDIA');
      expect(answer.body.error).toContain(`${platform} needs`);
      expect(answer.body.error).toContain('episode-12.mp3 is an audio file');
    });
  }

  it('a link with no extension to go by stays a warning, not a refusal', async () => {
    const answer = await bridge.call('POST', '/api/posts/preview', {
      body: { post: 'Cover', platforms: ['photogram'], mediaUrls: ['https://cdn.example.com/media/12345'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toEqual([]);
  });
});
