import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * Issue #30.4: every activity event about a post, broadcast, guest, episode or publish record
 * carries the name a person knows it by in `data.subject`, and its message is written in that
 * name, with no raw id in it (the ids stay in `data`). Real work through a sandbox bridge.
 */
let bridge: TestBridge;
let crmUrl: string;
let postsvcUrl: string;
let control: Record<string, string>;

beforeAll(async () => {
  bridge = await startTestBridge({ BRIDGE_SANDBOX: '1', POSTSVC_PLAN: 'premium' });
  const health = (await bridge.call('GET', '/health')).body as {
    peers: { crm: { url: string }; postsvc: { url: string } };
  };
  crmUrl = health.peers.crm.url;
  postsvcUrl = health.peers.postsvc.url;
  const settings = await bridge.call('GET', '/api/settings');
  control = {
    'X-Sandbox-Key': settings.body.sandboxControlKey as string,
    'content-type': 'application/json',
  };
});
afterAll(() => bridge?.close());

interface Subject {
  kind: string;
  id: string;
  name: string | null;
}
interface Event {
  id: number;
  type: string;
  level: string;
  message: string;
  data: (Record<string, unknown> & { subject?: Subject }) | null;
}

async function events(type: string): Promise<Event[]> {
  const { status, body } = await bridge.call('GET', `/api/activity?type=${type}&limit=200`);
  expect(status).toBe(200);
  return body.data as Event[];
}

/** The newest event of the type whose subject satisfies `match`, waited for. */
function eventAbout(type: string, match: (subject: Subject) => boolean): Promise<Event> {
  return eventually(
    async () => (await events(type)).find((e) => e.data?.subject && match(e.data.subject)),
    15_000,
  );
}

/** Every id the event's data holds (subject id included) is absent from its message. */
function expectNoIds(event: Event): void {
  const ids = new Set<string>();
  const visit = (value: unknown, key: string): void => {
    if (Array.isArray(value)) value.forEach((item) => visit(item, key));
    // A platform's own id (platformId) is part of the link the message gives on purpose.
    else if (typeof value === 'string' && /id$|ids$|dependents/i.test(key) && key !== 'platformId')
      ids.add(value);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) visit(v, k === 'id' && key === 'subject' ? 'subjectId' : k);
  };
  visit(event.data, '');
  for (const id of ids)
    expect(event.message, `${event.type} names ${id}: ${JSON.stringify(event.data)}`).not.toContain(id);
  expect(event.message).not.toMatch(/\b[0-9a-f]{24}\b/);
  expect(event.message).not.toMatch(/\bpst_\w+/);
  expect(event.message).not.toMatch(/SocialPost|PlatformPublish|ledger \d/);
}

const crmTime = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

describe('activity events name what they are about (issue #30.4)', () => {
  it('a post scheduled and cancelled through the API is named by its first words', async () => {
    const text = 'Teaser for Thursday: the harbour choir joins us live, with three new songs and a story';
    const when = new Date(Date.now() + 12 * 86_400_000);
    when.setUTCHours(3, 10, 0, 0);
    const scheduled = await bridge.call('POST', '/postsvc/schedule', {
      body: { post: text, platforms: ['microblog'], scheduleDate: when.toISOString() },
    });
    expect(scheduled.status).toBe(200);
    const postsvcId = scheduled.body.id as string;
    const cancelled = await bridge.call('POST', '/api/posts/cancel', { body: { id: postsvcId } });
    expect(cancelled.status).toBe(200);

    const excerpt = 'Teaser for Thursday: the harbour choir joins us…';
    for (const type of ['posting.scheduled', 'posting.cancelled']) {
      const event = await eventAbout(type, (s) => s.id === postsvcId);
      expect(event.data).toMatchObject({
        subject: { kind: 'post', id: postsvcId, name: excerpt },
        postsvcId,
      });
      expect(event.message).toContain(`Post “${excerpt}”`);
      expectNoIds(event);
    }
  });

  it('a CRM post the provider refuses is named by its CRM name in its failure', async () => {
    await fetch(`${postsvcUrl}/__sandbox/fail-platform`, {
      method: 'POST',
      headers: control,
      body: JSON.stringify({ platform: 'professional', message: 'The page needs re-linking.' }),
    });
    try {
      const created = await fetch(`${crmUrl}/__sandbox/records/SocialPost`, {
        method: 'POST',
        headers: control,
        body: JSON.stringify({
          name: 'Choir night promo',
          content: 'The harbour choir is back on Thursday: tickets at the door',
          platform: 'Professional',
          status: 'Scheduled',
          scheduledAt: crmTime(new Date(Date.now() + 13 * 86_400_000)),
        }),
      });
      expect(created.ok).toBe(true);
      const { id } = (await created.json()) as { id: string };
      const failed = await eventAbout('posting.failed', (s) => s.id === id);
      expect(failed.data).toMatchObject({
        subject: { kind: 'post', id, name: 'Choir night promo' },
        socialPostId: id,
      });
      expect(failed.message).toMatch(/^CRM post “Choir night promo” failed: .*re-linking/);
      expectNoIds(failed);
    } finally {
      await fetch(`${postsvcUrl}/__sandbox/fail-platform`, {
        method: 'POST',
        headers: control,
        body: JSON.stringify({ platform: 'professional', message: null }),
      });
    }
  });

  it("a guest's stage move and the workflow it starts name the guest", async () => {
    const guests = (await bridge.call('GET', '/api/guests')).body.data as {
      id: string;
      name: string;
      stage: string;
    }[];
    const guest = guests.find((g) => g.stage === 'Responded')!;
    expect(guest).toBeDefined();
    const moved = await bridge.call('POST', `/api/guests/${guest.id}/stage`, {
      body: { stage: 'Confirmed' },
    });
    expect(moved.status).toBe(200);

    const stage = await eventAbout('guests.stage', (s) => s.id === guest.id);
    expect(stage.data).toMatchObject({
      subject: { kind: 'guest', id: guest.id, name: guest.name },
      guestId: guest.id,
    });
    expect(stage.message).toMatch(new RegExp(`^Guest ${guest.name} moved from Responded to Confirmed`));
    expectNoIds(stage);
    // The workflow: started, or held for missing values: either way about the guest by name.
    const workflow = await eventually(async () => {
      const all = [...(await events('guests.workflow')), ...(await events('guests.hold'))];
      return all.find((e) => e.data?.subject?.id === guest.id);
    }, 15_000);
    expect(workflow.data?.subject).toEqual({ kind: 'guest', id: guest.id, name: guest.name });
    expect(workflow.message).toContain(
      `guest ${guest.name}`.replace(/^g/, workflow.message.startsWith('Guest') ? 'G' : 'g'),
    );
    expectNoIds(workflow);
  });

  it('a broadcast created and deleted is named by its title', async () => {
    const created = await bridge.call('POST', '/streamhost/create-broadcast', {
      body: { name: 'Harbour choir live', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(created.status).toBe(200);
    const broadcastId = created.body.broadcastId as string;
    // Not live yet, so it cannot be ended (409): deleted, as the operator would.
    const deleted = await bridge.call('POST', '/streamhost/delete-broadcast', { body: { broadcastId } });
    expect(deleted.status).toBe(200);
    for (const type of ['broadcast.created', 'broadcast.deleted']) {
      const event = await eventAbout(type, (s) => s.id === broadcastId);
      expect(event.data).toMatchObject({
        subject: { kind: 'broadcast', id: broadcastId, name: 'Harbour choir live' },
        broadcastId,
      });
      expect(event.message).toMatch(/^Broadcast “Harbour choir live” /);
      expectNoIds(event);
    }
  });

  it("an episode's publish records are named by their CRM names", async () => {
    const groups = (await bridge.call('GET', '/api/publishing')).body.data as {
      records: { id: string; name: string | null }[];
    }[];
    const videosite = groups.flatMap((g) => g.records).find((r) => r.name === 'Live Q&A · Videosite')!;
    expect((await bridge.call('POST', `/api/publishing/${videosite.id}/retry`)).status).toBe(200);

    const retry = await eventAbout('publish.retry', (s) => s.id === videosite.id);
    expect(retry.message).toMatch(/^Publish record “Live Q&A · Videosite”: set to Queued by the operator/);
    const published = await eventAbout('publish.published', (s) => s.id === videosite.id);
    expect(published.data).toMatchObject({
      subject: { kind: 'publish', id: videosite.id, name: 'Live Q&A · Videosite' },
      id: videosite.id,
    });
    expect(published.message).toMatch(/^Publish record “Live Q&A · Videosite” published/);
    for (const event of [retry, published]) expectNoIds(event);
  });
});
