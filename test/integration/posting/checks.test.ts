import { afterEach, describe, expect, it } from 'vitest';
import { toCrmDatetime } from '../../../main/sandbox/index.js';
import { withPostingBridge } from '../../support/posting-bridge.js';
import { webhooksQuiet } from '../../support/settle.js';

/**
 * Issue #14.2: nothing reaches the public unchecked (DESIGN §6.8). The media rules are checked
 * by the bridge before the provider is called, through the API and through the social-*
 * webhooks; the spacing warning counts every scheduled post, the CRM's included.
 */

const SECRET = 'posting-checks-secret';
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

const { crm, postsvc, bridge } = await withPostingBridge({
  secret: SECRET,
  postsvc: { rateLimitPerMinute: 10_000 },
});

const schedule = (body: Record<string, unknown>) => bridge.call('POST', '/postsvc/schedule', { body });
const creates = () => postsvc.callCount('/post', 'POST');

afterEach(() => {
  crm.clearWebhookTarget();
});

describe('media rules before the provider is called (API)', () => {
  it.each([
    [{ platforms: ['photogram'] }, 'mediaUrls: photogram needs an image or a video; none given'],
    [{ platforms: ['videosite'] }, 'mediaUrls: videosite needs a video; none given'],
    [{ platforms: ['shortvideo'] }, 'mediaUrls: shortvideo needs a video; none given'],
    [
      { platforms: ['videosite'], mediaUrls: ['https://cdn.example/cover.png'] },
      'mediaUrls: videosite needs a video; https://cdn.example/cover.png is an image',
    ],
  ])('%j → 400 INVALID_MEDIA "%s", the provider is not called', async (draft, message) => {
    const before = creates();
    const response = await schedule({ post: 'Media check', scheduleDate: inHours(30), ...draft });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'INVALID_MEDIA', error: message });
    expect(creates()).toBe(before);
  });

  it('an unknown extension is a warning, not a refusal; an image or a video passes Photogram', async () => {
    const unknown = await schedule({
      post: 'Media from a CDN without an extension',
      platforms: ['photogram'],
      mediaUrls: ['https://cdn.example/asset/8f2c'],
      scheduleDate: inHours(31),
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body.warnings).toEqual([
      'mediaUrls: photogram needs an image or a video; the kind of https://cdn.example/asset/8f2c cannot be told from its extension',
    ]);
    const video = await schedule({
      post: 'A reel',
      platforms: ['photogram'],
      mediaUrls: ['https://cdn.example/reel.mp4'],
      scheduleDate: inHours(40),
    });
    expect(video.status).toBe(200);
    expect(video.body.warnings).toEqual([]);
  });

  it('the preview reports the same rule with its code', async () => {
    const preview = await bridge.call('POST', '/api/posts/preview', {
      body: { post: 'Preview media', platforms: ['photogram'], scheduleDate: inHours(33) },
    });
    expect(preview.body.errors).toEqual([
      {
        field: 'mediaUrls',
        rule: 'media-required',
        message: 'mediaUrls: photogram needs an image or a video; none given',
        code: 'INVALID_MEDIA',
      },
    ]);
  });
});

describe('media rules before the provider is called (webhooks)', () => {
  it('a Photogram SocialPost without media: Failed with the rule, answered as a failed item, no provider call', async () => {
    crm.setWebhookTarget({
      baseUrl: bridge.url,
      secret: SECRET,
      deliveryDelayMs: 10,
    });
    const before = creates();
    const record = crm.create('SocialPost', {
      name: 'Photogram without media',
      content: 'A photo post with no photo',
      platform: 'Photogram',
      status: 'Scheduled',
      scheduledAt: toCrmDatetime(new Date(Date.now() + 50 * 3_600_000)),
    });
    await webhooksQuiet(crm);
    expect(crm.get('SocialPost', record.id)).toMatchObject({
      status: 'Failed',
      error: 'mediaUrl: photogram needs an image or a video; none given',
    });
    const delivery = crm
      .deliveries()
      .find((d) => d.event === 'social-created' && d.body.includes(record.id))!;
    expect(delivery.status).toBe(500);
    expect(creates()).toBe(before);
  });
});

describe('spacing counts every scheduled post', () => {
  it('a CRM post the ledger never scheduled (set up before the bridge) still gets the 2-hour warning', async () => {
    // Scheduled in the CRM with its provider id, as before the bridge was installed: not in the ledger.
    const at = new Date(Date.now() + 70 * 3_600_000);
    at.setUTCSeconds(0, 0);
    const provider = postsvc.importPost({
      post: 'Scheduled before the bridge',
      platforms: ['professional'],
      created: new Date(),
      scheduleDate: at,
    });
    crm.create('SocialPost', {
      name: 'Before the bridge',
      content: 'Scheduled before the bridge',
      platform: 'Professional',
      status: 'Scheduled',
      scheduledAt: toCrmDatetime(at),
      postsvcId: provider.id,
    });
    const later = new Date(at.getTime() + 30 * 60_000).toISOString();
    const response = await schedule({
      post: 'Thirty minutes later',
      platforms: ['professional'],
      scheduleDate: later,
    });
    expect(response.status).toBe(200);
    expect(response.body.warnings).toEqual([
      `professional: another post goes out at ${at.toISOString()} (30 min apart); 2 to 3 hours of spacing is recommended`,
    ]);
    const preview = await bridge.call('POST', '/api/posts/preview', {
      body: {
        post: 'Another',
        platforms: ['professional'],
        scheduleDate: new Date(at.getTime() - 45 * 60_000).toISOString(),
      },
    });
    expect(preview.body.warnings).toEqual(
      expect.arrayContaining([expect.stringContaining('professional: another post goes out at')]),
    );
  });
});
