import { describe, expect, it } from 'vitest';
import type { PostView } from '../../../shared/api/posting.js';
import type { ProductionThread } from '../../../shared/api/productions.js';
import { withPostingPeers } from '../../support/posting-bridge.js';

/**
 * Issue #44.2: a post scheduled from a clip links to the clip and the production. The schedule
 * request carries `contentProductionId` and `clipId`; the ledger keeps them, Posts gives them back
 * and the production's thread lists the post (scheduled from the dashboard) with its clip.
 */
const { crm, startBridge } = await withPostingPeers({
  secret: 'clip-link-secret',
  postsvc: { rateLimitPerMinute: 10_000 },
});
const bridge = await startBridge({ areas: ['health', 'webhooks', 'posting', 'productions'] });

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
const schedule = (body: Record<string, unknown>) => bridge.call('POST', '/postsvc/schedule', { body });
const apiPost = async (ledgerText: string): Promise<PostView | undefined> => {
  const list = await bridge.call('GET', '/api/posts');
  expect(list.status).toBe(200);
  return (list.body.data as PostView[]).find((post) => post.source === 'api' && post.post === ledgerText);
};

describe('POST /postsvc/schedule: the production and the clip of a post', () => {
  it('are stored and given back in Posts; a repeat under the same key keeps the first', async () => {
    const body = {
      post: 'From the clip',
      platforms: ['socialnet'],
      scheduleDate: inHours(30),
      idempotencyKey: 'clip-link-0001',
      contentProductionId: 'prod-clip-1',
      clipId: 'clip-77',
    };
    const first = await schedule(body);
    expect(first.status).toBe(200);
    expect(await apiPost('From the clip')).toMatchObject({
      contentProductionId: 'prod-clip-1',
      clipId: 'clip-77',
    });

    const again = await schedule({ ...body, contentProductionId: 'prod-other', clipId: 'clip-other' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, reused: true });
    expect(await apiPost('From the clip')).toMatchObject({
      contentProductionId: 'prod-clip-1',
      clipId: 'clip-77',
    });
  });

  it('a post without them links to nothing', async () => {
    expect(
      (await schedule({ post: 'Unlinked', platforms: ['socialnet'], scheduleDate: inHours(31) })).status,
    ).toBe(200);
    expect(await apiPost('Unlinked')).toMatchObject({ contentProductionId: null, clipId: null });
  });

  it.each([
    [{ contentProductionId: '' }, 'body.contentProductionId'],
    [{ clipId: 42 }, 'body.clipId'],
    [{ clipId: 'x'.repeat(300) }, 'body.clipId'],
  ])('%j → 400 VALIDATION_ERROR naming %s', async (link, field) => {
    const answer = await schedule({
      post: 'Bad link',
      platforms: ['socialnet'],
      scheduleDate: inHours(32),
      ...link,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(answer.body.error).toContain(field);
  });
});

describe('GET /api/productions/{id}: posts scheduled from the dashboard', () => {
  it("lists the ledger's posts of the production, marked as from the dashboard, with their clip", async () => {
    const production = crm.create('ContentProduction', { name: 'Clip link episode' });
    const clip = crm.create('Clip', { name: 'The hook', contentProductionId: production.id });
    const scheduled = await schedule({
      post: 'The hook, out Friday',
      platforms: ['socialnet', 'microblog'],
      scheduleDate: inHours(40),
      contentProductionId: production.id,
      clipId: clip.id,
    });
    expect(scheduled.status).toBe(200);
    await schedule({
      post: 'Another production',
      platforms: ['socialnet'],
      scheduleDate: inHours(41),
      contentProductionId: 'prod-else',
    });

    const answer = await bridge.call('GET', `/api/productions/${production.id}`);
    expect(answer.status).toBe(200);
    const posts = (answer.body as ProductionThread).posts;
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      from: 'dashboard',
      content: 'The hook, out Friday',
      platform: 'Socialnet, Microblog',
      status: 'Scheduled',
      postsvcId: scheduled.body.id,
      clipId: clip.id,
    });
  });
});
