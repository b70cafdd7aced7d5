import { afterEach, describe, expect, it } from 'vitest';
import { demoMetricsHistory, startSandboxPeers, type SandboxPeers } from '../../../main/sandbox/index.js';

const NOW = new Date('2026-09-15T10:00:00Z');

describe('sandbox peers with demo data', () => {
  const running: SandboxPeers[] = [];
  const start = async () => {
    const peers = await startSandboxPeers({ seedDemoData: true, now: () => NOW });
    running.push(peers);
    return peers;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((peers) => peers.stop()));
  });

  it('starts four peers on loopback ports with their own keys', async () => {
    const peers = await start();
    const urls = [peers.crm.url, peers.postsvc.url, peers.gateway.url, peers.automation.url];
    for (const url of urls) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set(urls).size).toBe(4);
    const user = await fetch(`${peers.crm.url}/api/v1/App/user`, {
      headers: { 'X-Api-Key': peers.crm.apiKey },
    });
    expect(user.status).toBe(200);
  });

  it('has a show with guests in every stage, content across stages, posts in every state', async () => {
    const { crm, postsvc, gateway, demo } = await start();
    expect(demo?.show).toBe('The Studio Hour');
    const guestStages = new Set(crm.list('GuestBooking').map((g) => g.stage));
    expect([...guestStages].sort()).toEqual([
      'Confirmed',
      'Outreach',
      'Published',
      'Recorded',
      'Responded',
      'Scheduled',
    ]);
    for (const guest of crm.list('GuestBooking')) {
      expect(guest.email).toMatch(/@/);
      expect(guest.timezone).toMatch(/^[A-Z][a-z]+\/[A-Za-z_]+$/);
    }
    const stages = new Set(crm.list('ContentProduction').map((c) => c.stage));
    expect(stages.size).toBeGreaterThanOrEqual(7);
    expect(crm.list('CEpisode').length).toBe(crm.list('CVideo').length);

    const posts = crm.list('SocialPost');
    const byStatus = (status: string) => posts.filter((p) => p.status === status);
    expect(byStatus('Failed')).toHaveLength(1);
    expect(byStatus('Failed')[0]?.error).toBeTruthy();
    expect(byStatus('Draft').length).toBeGreaterThan(0);
    const providerPosts = new Map(postsvc.posts().map((p) => [p.id, p]));
    for (const post of byStatus('Scheduled')) {
      expect(Date.parse(`${String(post.scheduledAt).replace(' ', 'T')}Z`)).toBeGreaterThan(NOW.getTime());
      expect(providerPosts.get(String(post.postsvcId))?.status).toBe('scheduled');
    }
    for (const post of byStatus('Published')) {
      expect(providerPosts.get(String(post.postsvcId))?.status).toBe('success');
    }
    // Importing history used none of today's quota.
    expect(postsvc.quota().used).toBe(0);

    const publishes = crm.list('PlatformPublish');
    expect(publishes.some((p) => p.status === 'Published' && p.platformUrl)).toBe(true);
    expect(publishes.some((p) => p.status === 'Failed' && p.apiResponse)).toBe(true);
    expect(publishes.some((p) => p.status === 'Queued' && p.platform === 'Streamhost')).toBe(true);

    const remote = new Set(gateway.broadcasts().map((b) => b.id));
    for (const b of crm.list('StreamhostBroadcast')) expect(remote.has(String(b.streamhostId))).toBe(true);
    expect(crm.list('Clip').length).toBeGreaterThan(0);
    expect(crm.notifications().length).toBe(crm.list('Clip').length);
  });

  it('tells one story per episode (issue #42.6): episodes 1 to 3 each have their guest, clips, posts, publish records and broadcast, linked and named alike', async () => {
    const { crm, demo } = await start();
    for (const n of [1, 2, 3]) {
      const id = demo!.ids[`ep${n}`]!;
      const production = crm.get('ContentProduction', id)!;
      expect(production.name).toMatch(new RegExp(`^The Studio Hour #${n}: `));
      const of = (entity: Parameters<typeof crm.list>[0]) =>
        crm.list(entity).filter((record) => record.contentProductionId === id);
      const [guest] = of('GuestBooking');
      expect(guest?.id).toBe(production.guestBookingId);
      expect(String(production.description)).toContain(String(guest?.name));
      expect(of('Clip').length).toBeGreaterThan(0);
      for (const clip of of('Clip')) expect(clip.name).toMatch(new RegExp(`^EP${n}: `));
      expect(of('SocialPost').length).toBeGreaterThan(0);
      expect(of('PlatformPublish').length).toBeGreaterThan(0);
      const broadcasts = of('StreamhostBroadcast');
      expect(broadcasts).toHaveLength(1);
      expect(broadcasts[0]!.name).toBe(`The Studio Hour Live #${n}`);
      expect(broadcasts[0]!.status).toBe('complete');
    }
  });

  it('published demo posts have analytics at the provider', async () => {
    const { crm, postsvc } = await start();
    const published = crm.list('SocialPost').find((p) => p.status === 'Published');
    const res = await fetch(`${postsvc.url}/analytics/post`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${postsvc.apiKey}` },
      body: JSON.stringify({ id: published?.postsvcId }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, { analytics?: { impressions: number } }>;
    const platform = String(published?.platform).toLowerCase();
    expect(body[platform]?.analytics?.impressions).toBeGreaterThan(0);
  });

  it('is deterministic for the same clock (ids aside)', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const strip = (peers: SandboxPeers) =>
      peers.crm.list('GuestBooking').map(({ name, email, stage, scheduledDate, topics }) => ({
        name,
        email,
        stage,
        scheduledDate,
        topics,
      }));
    expect(strip(a)).toEqual(strip(b));
    const content = (peers: SandboxPeers) =>
      peers.crm
        .list('ContentProduction')
        .map(({ name, stage, scheduledDate, ampClipsCut }) => [name, stage, scheduledDate, ampClipsCut]);
    expect(content(a)).toEqual(content(b));
    expect(a.postsvc.posts().map((p) => [p.post, p.status, p.created])).toEqual(
      b.postsvc.posts().map((p) => [p.post, p.status, p.created]),
    );
  });

  it('offers 90 days of metrics history from the provider’s model', () => {
    const rows = demoMetricsHistory(NOW);
    expect(rows).toHaveLength(90 * 4);
    expect(rows[0]?.metric_date).toBe('2026-06-17');
    expect(rows.at(-1)?.metric_date).toBe('2026-09-14');
    expect(demoMetricsHistory(NOW)).toEqual(rows);
  });
});
