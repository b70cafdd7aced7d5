import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrmClient } from '../../../main/peers/crm.js';
import { PeerError } from '../../../main/peers/peer-error.js';
import { startSandboxCrm, type SandboxCrm } from '../../../main/sandbox/crm/index.js';

let crm: SandboxCrm;
beforeAll(async () => {
  crm = await startSandboxCrm({ warn: () => undefined });
});
afterAll(() => crm.stop());

const noRetry = { attempts: 1, backoff: { baseMs: 0, maxMs: 0, jitter: 0 } };

describe('CRM client against the sandbox EspoCRM (DESIGN §5.1)', () => {
  it('authenticates with X-Api-Key or Basic, and reports a wrong key with the CRM reason', async () => {
    await expect(
      new CrmClient({ url: crm.url, apiKey: crm.apiKey }).checkCredentials(),
    ).resolves.toBeDefined();
    await expect(
      new CrmClient({ url: crm.url, username: crm.username, password: crm.password }).checkCredentials(),
    ).resolves.toBeDefined();
    const wrong = new CrmClient({ url: crm.url, apiKey: 'nope', retry: noRetry });
    const error = await wrong.checkCredentials().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PeerError);
    expect((error as PeerError).status).toBe(401);
    expect((error as PeerError).retryable).toBe(false);
  });

  it('pages past 200 records (EspoCRM refuses bigger pages) and filters with where', async () => {
    const client = new CrmClient({ url: crm.url, apiKey: crm.apiKey });
    const show = crm.create('ContentProduction', {
      name: 'Paging show',
      contentType: 'Episode',
      stage: 'Planning',
    }).id;
    for (let i = 0; i < 450; i++) {
      crm.create('SocialPost', {
        content: `post ${i}`,
        platform: 'Microblog',
        status: 'Draft',
        postType: 'Promo',
        contentProductionId: show,
      });
    }
    const all = await client.listAll('SocialPost', {
      where: [{ type: 'equals', attribute: 'contentProductionId', value: show }],
    });
    expect(all).toHaveLength(450);
    expect(new Set(all.map((r) => r.id)).size).toBe(450);
    const page = await client.list('SocialPost', { maxSize: 500 });
    expect(page.list.length).toBeLessThanOrEqual(200);
  });

  it('lists what changed since an ISO time, in the CRM format on the wire, oldest first (DESIGN §6.9)', async () => {
    let clock = Date.parse('2031-05-04T10:00:00.000Z');
    const timed = await startSandboxCrm({ now: () => new Date(clock), warn: () => undefined });
    try {
      const client = new CrmClient({ url: timed.url, apiKey: timed.apiKey });
      const older = timed.create('SocialPost', { content: 'older', platform: 'Microblog', status: 'Draft' });
      clock += 90_000;
      const newer = timed.create('SocialPost', { content: 'newer', platform: 'Microblog', status: 'Draft' });
      clock += 90_000;
      timed.update('SocialPost', older.id, { content: 'older, edited' });

      const page = await client.listModifiedSince('SocialPost', '2031-05-04T10:01:30.000Z');
      expect(page.list.map((r) => r.id)).toEqual([newer.id, older.id]);
      // ISO past the client boundary.
      expect(page.list.map((r) => r.modifiedAt)).toEqual([
        '2031-05-04T10:01:30.000Z',
        '2031-05-04T10:03:00.000Z',
      ]);
      expect((await client.listModifiedSince('SocialPost', '2031-05-04T10:01:30.000Z', 1)).list).toHaveLength(
        1,
      );
      expect(await client.newestModifiedAt('SocialPost')).toBe('2031-05-04T10:03:00.000Z');
      expect(await client.newestModifiedAt('GuestBooking')).toBeNull();
    } finally {
      await timed.stop();
    }
  });

  it('surfaces X-Status-Reason and classifies 404 as not retryable', async () => {
    const client = new CrmClient({ url: crm.url, apiKey: crm.apiKey, retry: noRetry });
    expect(await client.find('SocialPost', 'doesnotexist00000')).toBeNull();
    const error = (await client
      .update(
        'SocialPost',
        crm.create('SocialPost', { content: 'x', platform: 'Microblog', status: 'Draft' }).id,
        {
          status: 'NotAStatus',
        },
      )
      .catch((e: unknown) => e)) as PeerError;
    expect(error).toBeInstanceOf(PeerError);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/HTTP 400 \(.+\)/);
    expect(error.details.statusReason).toBeTruthy();
  });

  it('converts datetimes at the boundary: ISO out, EspoCRM format on the wire, ISO back', async () => {
    const client = new CrmClient({ url: crm.url, apiKey: crm.apiKey });
    const created = await client.create('SocialPost', {
      content: 'dated',
      platform: 'Socialnet',
      status: 'Draft',
      scheduledAt: '2026-12-01T18:30:00+01:00',
    });
    expect(created.scheduledAt).toBe('2026-12-01T17:30:00.000Z');
    expect(crm.get('SocialPost', created.id)?.scheduledAt).toBe('2026-12-01 17:30:00');
    const updated = await client.update('SocialPost', created.id, { scheduledAt: '2026-12-02T09:00:00Z' });
    expect(updated.scheduledAt).toBe('2026-12-02T09:00:00.000Z');
    expect(typeof updated.createdAt).toBe('string');
    expect(String(updated.createdAt)).toMatch(/T.*Z$/);
  });

  it('retries a GET through a 503 but not a POST (its outcome would be unknown)', async () => {
    const client = new CrmClient({
      url: crm.url,
      apiKey: crm.apiKey,
      retry: { attempts: 3, backoff: { baseMs: 10, maxMs: 50, jitter: 0 } },
    });
    crm.faults.injectFault({ method: 'GET', pathPrefix: '/api/v1/App/user', status: 503, times: 2 });
    await expect(client.checkCredentials()).resolves.toBeDefined();
    crm.faults.injectFault({ method: 'POST', pathPrefix: '/api/v1/SocialPost', status: 500, times: 1 });
    await expect(
      client.create('SocialPost', { content: 'once', platform: 'Microblog', status: 'Draft' }),
    ).rejects.toThrow(/HTTP 500/);
  });
});
