import { afterEach, describe, expect, it } from 'vitest';
import { postsvcErrorCodes, startSandboxPostsvc, type SandboxPostsvc } from '../../../main/sandbox/index.js';

/**
 * Issue #44.4: the sandbox provider's media store, shaped after Ayrshare's (DESIGN §5.2): GET
 * /media/uploadUrl answers a presigned upload URL (once, 30 min, the returned MIME type, no
 * Authorization header) and the accessUrl that serves the bytes back (HEAD, Range) for 30 days;
 * refused on the free plan.
 */
describe('sandbox posting provider: media uploads', () => {
  let postsvc: SandboxPostsvc;
  let clock = Date.parse('2026-12-02T09:00:00Z');
  const now = () => new Date(clock);
  const start = async (plan: 'free' | 'premium' = 'premium') => {
    clock = Date.parse('2026-12-02T09:00:00Z');
    postsvc = await startSandboxPostsvc({ now, plan });
  };
  afterEach(() => postsvc.stop());

  const uploadUrl = async (query: string) => {
    const res = await fetch(`${postsvc.url}/media/uploadUrl?${query}`, {
      headers: { Authorization: `Bearer ${postsvc.apiKey}` },
    });
    return { status: res.status, json: (await res.json()) as Record<string, string> };
  };
  const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));

  it('answers an upload URL and an access URL; the PUT stores the bytes, served back with HEAD and Range', async () => {
    await start();
    const answer = await uploadUrl('fileName=clip-9x16.mp4&contentType=mp4');
    expect(answer.status).toBe(200);
    expect(answer.json.contentType).toBe('video/mp4');
    expect(answer.json.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(answer.json.accessUrl).toMatch(/clip-9x16\.mp4$/);
    // Not there before the upload (a failed upload is silent: HEAD says so).
    expect((await fetch(answer.json.accessUrl!, { method: 'HEAD' })).status).toBe(404);

    const put = await fetch(answer.json.uploadUrl!, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4' },
      body: bytes,
    });
    expect(put.status).toBe(200);

    const head = await fetch(answer.json.accessUrl!, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(head.headers.get('content-type')).toBe('video/mp4');
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    const whole = await fetch(answer.json.accessUrl!);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(answer.json.accessUrl!, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    const beyond = await fetch(answer.json.accessUrl!, { headers: { Range: 'bytes=9000-' } });
    expect(beyond.status).toBe(416);
    expect(postsvc.media()).toEqual([
      expect.objectContaining({
        accessUrl: answer.json.accessUrl,
        bytes: bytes.length,
        contentType: 'video/mp4',
      }),
    ]);
    expect(postsvc.mediaBytes(answer.json.accessUrl!)?.equals(bytes)).toBe(true);
  });

  it('refuses a PUT with an Authorization header, a second PUT, a late one and the wrong MIME type', async () => {
    await start();
    const first = await uploadUrl('fileName=a.mp4&contentType=mp4');
    const withAuth = await fetch(first.json.uploadUrl!, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4', Authorization: `Bearer ${postsvc.apiKey}` },
      body: bytes,
    });
    expect(withAuth.status).toBe(400);
    expect(await withAuth.text()).toMatch(/Authorization/);
    const wrongType = await fetch(first.json.uploadUrl!, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: bytes,
    });
    expect(wrongType.status).toBe(403);
    // Neither used it up: the right PUT still works, once.
    const put = () =>
      fetch(first.json.uploadUrl!, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: bytes });
    expect((await put()).status).toBe(200);
    expect((await put()).status).toBe(403);

    const late = await uploadUrl('fileName=b.jpg&contentType=jpg');
    expect(late.json.contentType).toBe('image/jpeg');
    clock += 31 * 60_000;
    const latePut = await fetch(late.json.uploadUrl!, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/jpeg' },
      body: bytes,
    });
    expect(latePut.status).toBe(403);
    expect(await latePut.text()).toMatch(/expired/i);
  });

  it('serves media for 30 days, then no more', async () => {
    await start();
    const answer = await uploadUrl('fileName=a.mp4&contentType=mp4');
    await fetch(answer.json.uploadUrl!, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4' },
      body: bytes,
    });
    clock += 29 * 86_400_000;
    expect((await fetch(answer.json.accessUrl!, { method: 'HEAD' })).status).toBe(200);
    clock += 2 * 86_400_000;
    expect((await fetch(answer.json.accessUrl!, { method: 'HEAD' })).status).toBe(404);
  });

  it('checks the query and the plan: 400 naming the parameter, 403 on the free plan', async () => {
    await start();
    const missing = await uploadUrl('contentType=mp4');
    expect(missing.status).toBe(400);
    expect(missing.json.message).toMatch(/fileName/);
    const badType = await uploadUrl('fileName=a.exe&contentType=exe');
    expect(badType.status).toBe(400);
    expect(badType.json.message).toMatch(/contentType/);
    postsvc.setPlan('free');
    const free = await uploadUrl('fileName=a.mp4&contentType=mp4');
    expect(free.status).toBe(403);
    expect(free.json).toMatchObject({ status: 'error', code: postsvcErrorCodes.planRequired });
    expect(free.json.message).toMatch(/Premium/);
  });
});
