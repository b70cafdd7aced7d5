import { afterEach, describe, expect, it } from 'vitest';
import { toCrmDatetime } from '../../../main/sandbox/index.js';
import { withPostingBridge } from '../../support/posting-bridge.js';
import { webhooksQuiet } from '../../support/settle.js';

/**
 * Issue #14.3 and #14.11: a failed, cancelled or partly failed post is not a dead end. Each
 * platform of a post has its own state; Retry sends only what failed; a failed or cancelled
 * post is edited and rescheduled through the same ledger (a new generation, never two live posts).
 */

const SECRET = 'posting-retry-secret';
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

const { crm, postsvc, bridge } = await withPostingBridge({
  secret: SECRET,
  postsvc: { rateLimitPerMinute: 10_000 },
  bridge: { webhooks: { deliveryDelayMs: 10 } },
});

interface PlatformState {
  platform: string;
  status: string;
  error: string | null;
  postsvcId: string | null;
}
interface View {
  key: string;
  ledgerId: number | null;
  socialPostId: string | null;
  status: string;
  post: string;
  platforms: string[];
  platformStates: PlatformState[];
  postsvcId: string | null;
}

const schedule = (body: Record<string, unknown>) => bridge.call('POST', '/postsvc/schedule', { body });
const creates = () => postsvc.callCount('/post', 'POST');
const providerPosts = (text: string) => postsvc.posts().filter((p) => p.post === text);

async function views(): Promise<View[]> {
  const list = await bridge.call('GET', '/api/posts');
  expect(list.status).toBe(200);
  return list.body.data as View[];
}
async function viewOf(text: string): Promise<View | undefined> {
  return (await views()).find((view) => view.post === text);
}

afterEach(() => {
  for (const platform of ['socialnet', 'professional'] as const) postsvc.failPlatform(platform, null);
});

describe('one platform failed, the others went out (#14.11)', () => {
  it('each platform has its own state; Retry sends only the failed platform, once', async () => {
    postsvc.failPlatform('socialnet', 'Page token expired. Reconnect the page.');
    const text = 'Half out: microblog yes, socialnet no';
    const sent = await schedule({
      post: text,
      platforms: ['microblog', 'socialnet'],
      scheduleDate: inHours(20),
    });
    expect(sent.status).toBe(500);
    const [first] = providerPosts(text);
    expect(sent.body.error).toBe(
      'Posted on Microblog. Socialnet refused it: Page token expired. Reconnect the page.',
    );
    expect(sent.body.details).toMatchObject({ postsvcId: first!.id, posted: ['microblog'] });

    const partial = await viewOf(text);
    expect(partial).toMatchObject({
      status: 'partial',
      platformStates: [
        { platform: 'microblog', status: 'scheduled', error: null, postsvcId: first!.id },
        {
          platform: 'socialnet',
          status: 'failed',
          error: 'Page token expired. Reconnect the page.',
          postsvcId: null,
        },
      ],
    });

    postsvc.failPlatform('socialnet', null);
    const before = creates();
    // Twice at once: one new provider post for socialnet, the other answer is a conflict.
    const retries = await Promise.all([
      bridge.call('POST', '/api/posts/retry', { body: { ledgerId: partial!.ledgerId } }),
      bridge.call('POST', '/api/posts/retry', { body: { ledgerId: partial!.ledgerId } }),
    ]);
    expect(retries.map((r) => r.status).sort()).toEqual([200, 409]);
    const ok = retries.find((r) => r.status === 200)!;
    expect(creates() - before).toBe(1);
    const attempts = providerPosts(text);
    expect(attempts).toHaveLength(2);
    const second = attempts.find((p) => p.id !== first!.id)!;
    expect(second.platforms).toEqual(['socialnet']);
    expect(second.status).toBe('scheduled');
    expect(ok.body).toMatchObject({ status: 'scheduled', postsvcId: second.id });

    expect(await viewOf(text)).toMatchObject({
      status: 'scheduled',
      platformStates: [
        { platform: 'microblog', status: 'scheduled', postsvcId: first!.id },
        { platform: 'socialnet', status: 'scheduled', error: null, postsvcId: second.id },
      ],
    });
    const again = await bridge.call('POST', '/api/posts/retry', { body: { ledgerId: partial!.ledgerId } });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain('nothing of this post has failed');
  });
});

describe('edit and reschedule a failed or cancelled post (#14.3)', () => {
  it('a failed dashboard post: new text, time and platforms, one new provider post; the failed one stays failed', async () => {
    postsvc.failPlatform('professional', 'Company page not connected.');
    const text = 'Refused whole';
    const sent = await schedule({ post: text, platforms: ['professional'], scheduleDate: inHours(22) });
    expect(sent.status).toBe(500);
    const failed = await viewOf(text);
    expect(failed?.status).toBe('failed');
    postsvc.failPlatform('professional', null);

    const edited = 'Refused whole, edited';
    const when = inHours(23);
    const before = creates();
    const body = {
      ledgerId: failed!.ledgerId,
      post: edited,
      scheduleDate: when,
      platforms: ['professional', 'socialnet'],
    };
    const answers = await Promise.all([
      bridge.call('POST', '/api/posts/reschedule', { body }),
      bridge.call('POST', '/api/posts/reschedule', { body }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(creates() - before).toBe(1);
    const [created] = providerPosts(edited);
    expect(created).toMatchObject({ platforms: ['professional', 'socialnet'], scheduleDate: when });
    expect(providerPosts(text).map((p) => p.status)).toEqual(['error']);

    const list = await views();
    expect(list.filter((v) => v.post === text)).toEqual([]);
    expect(list.find((v) => v.post === edited)).toMatchObject({
      status: 'scheduled',
      postsvcId: created!.id,
    });
  });

  it('a cancelled dashboard post is rescheduled as a new post; the cancelled one stays deleted', async () => {
    const text = 'Cancelled, then again';
    const sent = await schedule({ post: text, platforms: ['socialnet'], scheduleDate: inHours(24) });
    expect(sent.status).toBe(200);
    expect((await bridge.call('POST', '/postsvc/delete', { body: { id: sent.body.id } })).status).toBe(200);
    const cancelled = await viewOf(text);
    expect(cancelled?.status).toBe('cancelled');

    const answer = await bridge.call('POST', '/api/posts/reschedule', {
      body: { ledgerId: cancelled!.ledgerId, post: text, scheduleDate: inHours(25) },
    });
    expect(answer.status).toBe(200);
    expect(
      providerPosts(text)
        .map((p) => p.status)
        .sort(),
    ).toEqual(['deleted', 'scheduled']);
    expect((await views()).filter((v) => v.post === text)).toMatchObject([{ status: 'scheduled' }]);
  });

  it('Retry of a post whose time has passed says to edit it, in words; the record is left alone', async () => {
    const record = crm.create('SocialPost', {
      name: 'Yesterday',
      content: 'Was due yesterday',
      platform: 'Socialnet',
      status: 'Scheduled',
      scheduledAt: toCrmDatetime(new Date(Date.now() - 20 * 3_600_000)),
    });
    await webhooksQuiet(crm);
    expect(crm.get('SocialPost', record.id)?.status).toBe('Failed');
    const retry = await bridge.call('POST', '/api/posts/retry', { body: { socialPostId: record.id } });
    expect(retry.status).toBe(400);
    expect(retry.body.code).toBe('INVALID_DATE');
    expect(retry.body.error).toMatch(
      /^scheduleDate: this post was due at \S+, which has passed; edit it to give it a new time$/,
    );
    expect(crm.get('SocialPost', record.id)?.status).toBe('Failed');
  });

  it('a failed CRM post keeps its platform; the edit is written back to the record and its echo posts nothing more', async () => {
    const record = crm.create('SocialPost', {
      name: 'Photo without photo',
      content: 'Behind the scenes',
      platform: 'Photogram',
      status: 'Scheduled',
      scheduledAt: toCrmDatetime(new Date(Date.now() + 30 * 3_600_000)),
    });
    await webhooksQuiet(crm);
    expect(crm.get('SocialPost', record.id)?.status).toBe('Failed');

    const other = await bridge.call('POST', '/api/posts/reschedule', {
      body: { socialPostId: record.id, post: 'x', scheduleDate: inHours(31), platforms: ['socialnet'] },
    });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('platforms: a post from the CRM keeps its one platform (photogram)');

    const before = creates();
    const when = new Date(Date.now() + 32 * 3_600_000);
    when.setUTCSeconds(0, 0);
    const answer = await bridge.call('POST', '/api/posts/reschedule', {
      body: {
        socialPostId: record.id,
        post: 'Behind the scenes, with the photo',
        scheduleDate: when.toISOString(),
        mediaUrls: ['https://cdn.example/bts.jpg'],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('scheduled');
    const stored = crm.get('SocialPost', record.id)!;
    expect(stored).toMatchObject({
      content: 'Behind the scenes, with the photo',
      scheduledAt: toCrmDatetime(when),
      mediaUrl: 'https://cdn.example/bts.jpg',
      status: 'Scheduled',
      postsvcId: answer.body.postsvcId,
    });
    expect(stored.error ?? null).toBeNull();
    await webhooksQuiet(crm);
    expect(creates() - before).toBe(1);
    expect(providerPosts('Behind the scenes, with the photo')).toHaveLength(1);
  });
});
