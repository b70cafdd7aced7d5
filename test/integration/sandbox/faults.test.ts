import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxPostsvc, type SandboxPostsvc } from '../../../main/sandbox/index.js';
import { eventually } from '../../support/wait.js';

describe('sandbox fault injection (any peer; shown on the provider)', () => {
  let postsvc: SandboxPostsvc;
  const post = (body: unknown, signal?: AbortSignal) =>
    fetch(`${postsvc.url}/post`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${postsvc.apiKey}` },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  const body = { post: 'hello', platforms: ['microblog'] };

  afterEach(() => postsvc.stop());

  it('answers an injected status and body for `times` requests, then behaves again', async () => {
    postsvc = await startSandboxPostsvc();
    postsvc.faults.injectFault({
      method: 'POST',
      pathPrefix: '/post',
      status: 503,
      body: { status: 'error', code: 503, message: 'maintenance' },
      headers: { 'Retry-After': '7' },
      times: 2,
    });
    for (let i = 0; i < 2; i++) {
      const res = await post(body);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(await res.json()).toMatchObject({ message: 'maintenance' });
    }
    expect((await post(body)).status).toBe(200);
    expect(postsvc.posts()).toHaveLength(1);
    expect(postsvc.faults.activeFaults()).toEqual([]);
  });

  it('hang: does the work but never answers (accepted, then timed out)', async () => {
    postsvc = await startSandboxPostsvc();
    postsvc.faults.injectFault({ pathPrefix: '/post', hang: true, times: 1 });
    await expect(post(body, AbortSignal.timeout(300))).rejects.toThrow();
    expect(postsvc.posts()).toHaveLength(1);
    expect((await post(body)).status).toBe(200);
  });

  it('delayMs answers late', async () => {
    postsvc = await startSandboxPostsvc();
    postsvc.faults.injectFault({ pathPrefix: '/user', delayMs: 250, times: 1 });
    const started = Date.now();
    const res = await fetch(`${postsvc.url}/user`, {
      headers: { Authorization: `Bearer ${postsvc.apiKey}` },
    });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('refuseConnections closes the port and reopens the same one', async () => {
    postsvc = await startSandboxPostsvc();
    await postsvc.faults.refuseConnections(true);
    await expect(fetch(`${postsvc.url}/user`)).rejects.toThrow();
    await postsvc.faults.refuseConnections(false);
    expect((await fetch(`${postsvc.url}/user`)).status).toBe(401);
  });

  it('the same controls over HTTP under /__sandbox, with the sandbox control key', async () => {
    postsvc = await startSandboxPostsvc();
    const control = (path: string, payload: unknown) =>
      fetch(`${postsvc.url}/__sandbox${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Sandbox-Key': postsvc.controlKey },
        body: JSON.stringify(payload),
      });
    expect((await control('/faults', { pathPrefix: '/post', status: 500, times: 1 })).status).toBe(200);
    expect((await control('/faults', { status: 'x', times: 0 })).status).toBe(400);
    expect((await post(body)).status).toBe(500);
    expect((await control('/fail-platform', { platform: 'microblog', message: 'down' })).status).toBe(200);
    expect(((await (await post(body)).json()) as { status: string }).status).toBe('error');

    expect((await control('/refuse-connections', { on: true, forMs: 200 })).status).toBe(200);
    const refusing = () =>
      fetch(`${postsvc.url}/user`).then(
        () => false,
        () => true,
      );
    // The refusal starts once the control answer is sent, and ends by itself after forMs.
    await eventually(refusing, 2_000, 10);
    await expect(fetch(`${postsvc.url}/user`)).rejects.toThrow();
    await eventually(async () => !(await refusing()), 2_000, 20);
    expect((await fetch(`${postsvc.url}/user`)).status).toBe(401);
    const state = (await (
      await fetch(`${postsvc.url}/__sandbox/state`, { headers: { 'X-Sandbox-Key': postsvc.controlKey } })
    ).json()) as { peer: string };
    expect(state.peer).toBe('postsvc');
  });

  it('stop() returns promptly with a hanging request and keep-alive sockets open', async () => {
    postsvc = await startSandboxPostsvc();
    await fetch(`${postsvc.url}/user`);
    postsvc.faults.injectFault({ pathPrefix: '/post', hang: true, times: 1 });
    const hanging = post(body).catch(() => 'closed');
    await eventually(() => postsvc.callCount('/post', 'POST') === 1);
    const started = Date.now();
    await postsvc.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await hanging).toBe('closed');
  });
});
