import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';
import { startCompanionHost, type CompanionHost } from '../../support/companion/client.js';
import { registryNodeRuns } from '../../support/node-binary.js';
import { freePort } from '../../support/ports.js';

/**
 * The Companion module (integrations/companion, DESIGN §5.6) run as Companion runs it: on Node 22
 * from the registry, constructed and driven through @companion-module/base's host API
 * (InstanceContext) by test/support/companion/host.ts, against a real bridge in sandbox mode
 * (simulated CRM, posting provider, gateway and OBS). Every action is checked on the bridge
 * through its API; every feedback and variable against what the bridge says.
 */
describe.skipIf(!registryNodeRuns)('the Companion module on Node 22 against a sandbox bridge', () => {
  let bridge: TestBridge;
  let host: CompanionHost;
  const extraHosts: CompanionHost[] = [];

  beforeAll(async () => {
    bridge = await startTestBridge({ BRIDGE_SANDBOX: '1' });
    host = startCompanionHost();
    await host.init(bridge.url, TEST_API_KEY);
    await host.until((h) => h.status()?.status === 'ok', 20_000);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([host, ...extraHosts].map((h) => h?.close()));
    await bridge?.close();
  });

  const get = async (path: string) => {
    const answer = await bridge.call('GET', path);
    expect(answer.status, path).toBe(200);
    return answer.body;
  };
  const post = async (path: string, body: unknown = {}) => {
    const answer = await bridge.call('POST', path, { body });
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body;
  };

  describe('connection', () => {
    it('is OK with the key, and the variables hold what the bridge says', async () => {
      expect(host.statuses[0]).toMatchObject({ status: 'connecting' });
      expect(host.status()).toEqual({ status: 'ok', message: null, at: expect.any(Number) });
      const quota = (await get('/api/posts/quota')).quota;
      await host.until((h) => h.variables.posts_left_today === quota.left);
    });

    it('shows Connection Failure in the bridge’s words for a wrong key', async () => {
      const wrong = startCompanionHost();
      extraHosts.push(wrong);
      await wrong.init(bridge.url, 'not-the-key');
      const failure = await wrong.until((h) => h.statuses.find((s) => s.status === 'connection_failure'));
      expect(failure.message).toMatch(
        /^the bridge refused the API key: missing or wrong bridge API key; trying again in 30 s$/,
      );
      expect(wrong.statuses.some((s) => s.status === 'ok')).toBe(false);

      // The key fixed in the config: connected, without a restart of the module.
      await wrong.configUpdated(bridge.url, TEST_API_KEY);
      await wrong.until((h) => h.status()?.status === 'ok');
    });

    it('shows Connection Failure naming the address when the bridge is unreachable, and keeps trying', async () => {
      const nowhere = startCompanionHost();
      extraHosts.push(nowhere);
      const url = `http://127.0.0.1:${await freePort()}`;
      await nowhere.init(url, TEST_API_KEY);
      const failure = await nowhere.until((h) => h.statuses.find((s) => s.status === 'connection_failure'));
      expect(failure.message).toBe(`cannot reach the bridge at ${url}: ECONNREFUSED; trying again in 1 s`);
      // It reconnects by itself: a second attempt is announced, then fails again with a longer wait.
      await nowhere.until((h) =>
        h.statuses.some((s) => s.status === 'connecting' && s.message === 'reconnecting (attempt 2)'),
      );
      await nowhere.until((h) => h.statuses.some((s) => s.message?.endsWith('trying again in 2 s')));
    });
  });

  describe('recorder', () => {
    it('set next filename (with a Companion variable): the bridge holds it; variable and feedback follow', async () => {
      await host.addFeedback('rec-applied', 'recorder_state', { state: 'applied' });
      const left = host.variables.posts_left_today;
      await host.runAction('set_filename', { filename: 'ep42_quota$(bridge:posts_left_today)' });
      const held = await get('/api/recorder/filename');
      expect(held).toMatchObject({ filename: `ep42_quota${left}`, state: 'applied' });
      expect(host.variables.next_filename).toBe(`ep42_quota${left}`);
      expect(host.variables.take_number).toBe(1);
      await host.until((h) => h.feedbacks['rec-applied'] === true);
    });

    it('set filename from the next scheduled production: YYYYMMDD_<name> from the bridge', async () => {
      const next = await get('/api/recorder/next-production');
      expect(next.filename).toMatch(/^\d{8}_\S+$/);
      await host.runAction('filename_from_next_production');
      const held = await get('/api/recorder/filename');
      expect(held.filename).toBe(next.filename);
      // Its takes belong to that production (issue #42.2).
      expect(held.contentProductionId).toBe(next.production.id);
      await host.until((h) => h.variables.next_filename === next.filename);
    });

    it('add mark: the bridge stores it with its label', async () => {
      const before = (await get('/api/recorder/takes')).looseMarks.length;
      await host.runAction('add_mark', { label: 'good answer' });
      const marks = (await get('/api/recorder/takes')).looseMarks;
      expect(marks).toHaveLength(before + 1);
      expect(marks[0]).toMatchObject({ label: 'good answer', takeId: null });
    });

    it('a take on the recorder: recording feedback, then last take file and take number 2', async () => {
      await host.addFeedback('recording', 'recording');
      expect(host.feedbacks.recording).toBe(false);
      await post('/api/sandbox/obs', { action: 'start' });
      await host.until((h) => h.feedbacks.recording === true);
      await post('/api/sandbox/obs', { action: 'stop' });
      await host.until((h) => h.feedbacks.recording === false);
      const [take] = (await get('/api/recorder/takes')).takes;
      expect(take.filePath).toEqual(expect.any(String));
      await host.until((h) => h.variables.last_take_file === take.filePath.split('/').pop());
      // The name was used by that take: the bridge's next name is _T02, and the variables say so.
      const next = await get('/api/recorder/filename');
      expect(next.filename).toMatch(/_T02$/);
      await host.until((h) => h.variables.next_filename === next.filename && h.variables.take_number === 2);
    });
  });

  describe('broadcast', () => {
    let broadcastId: string;

    it('on air: the feedback and the variables follow the host', async () => {
      await host.addFeedback('on-air', 'on_air');
      expect(host.feedbacks['on-air']).toBe(false);
      const created = await post('/streamhost/create-broadcast', {
        name: 'Companion live test',
        scheduledAt: new Date(Date.now() + 60_000).toISOString(),
      });
      broadcastId = created.broadcastId;
      await post('/api/sandbox/encoder', { broadcastId });
      await host.until((h) => h.feedbacks['on-air'] === true, 20_000);
      expect(host.variables.on_air_name).toBe('Companion live test');
      expect(host.variables.on_air_viewers).toEqual(expect.any(Number));
    });

    it('end broadcast needs two presses within 5 s; one press only arms, and the arming runs out', async () => {
      await host.addFeedback('armed-end', 'armed', { action: 'end_broadcast' });
      const status = async () => (await get(`/streamhost/status/${broadcastId}`)).broadcast.status;

      await host.runAction('end_broadcast', { broadcast: 'live' });
      expect(host.feedbacks['armed-end']).toBe(true);
      expect(await status()).toBe('live');
      await host.until((h) => h.feedbacks['armed-end'] === false, 8_000);
      // Pressed again after the window: armed again, still live.
      await host.runAction('end_broadcast', { broadcast: 'live' });
      expect(await status()).toBe('live');
      await host.runAction('end_broadcast', { broadcast: 'live' });
      expect(host.feedbacks['armed-end']).toBe(false);
      expect(await status()).toBe('complete');
      await host.until((h) => h.feedbacks['on-air'] === false && h.variables.on_air_name === '', 20_000);
    });
  });

  describe('posts, analytics, guests, peers', () => {
    it('the NEXT POST key names only a post that post now can send: the sandbox’s own, scheduled at the provider outside this bridge, is not offered', async () => {
      // Issue #38.6: in the real Companion the key named the sandbox's next post (crm:…, ledgerId
      // null), post now armed on it, and the second press failed. The bridge leaves a provider post
      // it did not schedule alone (decide.ts), so post now cannot send it.
      await host.until((h) => h.variables.posts_left_today !== '');
      type View = {
        key: string;
        ledgerId: number | null;
        status: string;
        post: string;
        publishAt: string | null;
      };
      const upcoming = ((await get('/api/posts')).data as View[])
        .filter((p) => p.status === 'scheduled' && Date.parse(p.publishAt ?? '') > Date.now())
        .sort((a, b) => Date.parse(a.publishAt!) - Date.parse(b.publishAt!));
      const [first] = upcoming;
      expect(first).toMatchObject({ key: expect.stringMatching(/^crm:/), ledgerId: null });
      // The sandbox holds no post this bridge scheduled: nothing is offered.
      expect(upcoming.filter((p) => p.ledgerId !== null)).toEqual([]);
      await host.addFeedback('armed-offered', 'armed', { action: 'post_now' });
      expect(host.variables.next_post_text).toBe('');
      expect(host.variables.next_post_time).toBe('');

      await expect(host.runAction('post_now', { post: 'next' })).rejects.toThrow(
        /^post now: no scheduled post this bridge can post now/,
      );
      expect(host.feedbacks['armed-offered']).toBe(false);
      const provider = (await get('/postsvc/history?limit=100')).data as Array<{
        post: string;
        status: string;
      }>;
      expect(provider.filter((p) => p.post === first!.post).map((p) => p.status)).toEqual(['scheduled']);
    });

    it('post now needs two presses: the scheduled post is then published now, once', async () => {
      await host.addFeedback('armed-post', 'armed', { action: 'post_now' });
      const text = `Companion post-now test ${Date.now()}`;
      const scheduled = await post('/postsvc/schedule', {
        post: text,
        platforms: ['microblog'],
        scheduleDate: new Date(Date.now() + 30 * 60_000).toISOString(),
      });
      await host.until((h) => h.variables.next_post_text === text);
      const history = async () =>
        (await get('/postsvc/history?limit=100')).data.filter((p: { post: string }) => p.post === text);

      await host.runAction('post_now', { post: 'next' });
      // The armed feedback comes back from the module's process after the action's answer.
      await host.until((h) => h.feedbacks['armed-post'] === true, 3_000);
      expect(await history()).toEqual([expect.objectContaining({ id: scheduled.id, status: 'scheduled' })]);

      await host.runAction('post_now', { post: 'next' });
      const after = await history();
      expect(after.filter((p: { status: string }) => p.status === 'published')).toHaveLength(1);
      expect(after.filter((p: { status: string }) => p.status === 'scheduled')).toHaveLength(0);
      await host.until((h) => h.variables.next_post_text !== text);
    });

    it('post now sends only the post its first press named: when the next post changes in between, the second press arms the new one', async () => {
      const stamp = Date.now();
      const schedule = (text: string, minutes: number) =>
        post('/postsvc/schedule', {
          post: text,
          platforms: ['microblog'],
          scheduleDate: new Date(Date.now() + minutes * 60_000).toISOString(),
        });
      const statusOf = async (text: string) =>
        ((await get('/postsvc/history?limit=100')).data as Array<{ post: string; status: string }>)
          .filter((p) => p.post === text)
          .map((p) => p.status);
      const later = `Companion later ${stamp}`;
      const sooner = `Companion sooner ${stamp}`;
      await schedule(later, 40);
      await host.until((h) => h.variables.next_post_text === later);
      await host.runAction('post_now', { post: 'next' });

      await schedule(sooner, 20);
      await host.until((h) => h.variables.next_post_text === sooner);
      await host.runAction('post_now', { post: 'next' });
      expect(await statusOf(sooner)).toEqual(['scheduled']);
      expect(await statusOf(later)).toEqual(['scheduled']);

      await host.runAction('post_now', { post: 'next' });
      expect(await statusOf(sooner)).toContain('published');
      expect(await statusOf(later)).toEqual(['scheduled']);
      await host.until((h) => h.variables.next_post_text === later);
    });

    it('run collection now: the bridge starts a run', async () => {
      const before = (await get('/analytics/runs')).data.length;
      await host.runAction('run_collection');
      expect((await get('/analytics/runs')).data.length).toBe(before + 1);
    });

    it('failed posts, guest held and peer down match the bridge', async () => {
      const posts = (await get('/api/posts')).data as Array<{ status: string }>;
      const holds = (await get('/api/guests/holds')).data as Array<{ status: string }>;
      const health = await get('/health');
      expect(await host.addFeedback('failed', 'failed_posts')).toBe(
        posts.some((p) => ['failed', 'partial'].includes(p.status)),
      );
      expect(await host.addFeedback('held', 'guest_held')).toBe(
        holds.some((h) => ['held', 'waiting'].includes(h.status)),
      );
      const down = Object.values(health.peers as Record<string, { reachable: boolean | null }>).some(
        (p) => p.reachable === false,
      );
      expect(await host.addFeedback('peer', 'peer_down', { peer: 'any' })).toBe(down);
    });
  });

  describe('reconnect (last: it restarts the bridge)', () => {
    it('a bridge that goes away shows Connection Failure; back on its address, the module resyncs and is live again', async () => {
      const port = new URL(bridge.url).port;
      const before = host.statuses.length;
      await bridge.close();
      const failure = await host.until((h) =>
        h.statuses.slice(before).find((s) => s.status === 'connection_failure'),
      );
      expect(failure.message).toMatch(
        /^the bridge closed the event stream; trying again in 1 s$|ECONNREFUSED/,
      );

      bridge = await startTestBridge({ BRIDGE_SANDBOX: '1', BRIDGE_PORT: port });
      const back = await host.until((h) => h.statuses.slice(before).find((s) => s.status === 'ok'), 40_000);
      expect(
        host.statuses
          .slice(before)
          .some((s) => s.status === 'connecting' && /^reconnecting/.test(s.message ?? '')),
      ).toBe(true);
      expect(back.at).toBeGreaterThan(failure.at);
      // The new bridge's state (it holds no name after a restart), then its events, reach the variables.
      await host.until((h) => h.variables.next_filename === '');
      await post('/api/recorder/filename', { filename: 'after_restart' });
      await host.until((h) => h.variables.next_filename === 'after_restart');
    }, 60_000);
  });

  describe('definitions', () => {
    it('has the actions, feedbacks, variables and a 15-key page of presets the issue lists', async () => {
      const definitions = await host.definitions();
      expect(Object.keys(definitions.actions).sort()).toEqual(
        [
          'add_mark',
          'end_broadcast',
          'filename_from_next_production',
          'post_now',
          'run_collection',
          'set_filename',
        ].sort(),
      );
      expect(definitions.feedbacks.sort()).toEqual(
        ['armed', 'failed_posts', 'guest_held', 'on_air', 'peer_down', 'recorder_state', 'recording'].sort(),
      );
      expect(definitions.variables.sort()).toEqual(
        [
          'last_take_file',
          'next_filename',
          'next_post_text',
          'next_post_time',
          'on_air_name',
          'on_air_viewers',
          'posts_left_today',
          'take_number',
        ].sort(),
      );
      expect(Object.keys(definitions.presets.definitions)).toHaveLength(15);
    });
  });
});
