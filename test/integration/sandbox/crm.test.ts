import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCrm, type SandboxCrm } from '../../../main/sandbox/index.js';

describe('sandbox CRM: EspoCRM REST', () => {
  let crm: SandboxCrm;
  let clock = Date.parse('2026-03-01T12:00:00Z');
  const api = (path: string): string => `${crm.url}/api/v1${path}`;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(api(path), {
      method,
      headers: { 'X-Api-Key': crm.apiKey, 'Content-Type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      reason: res.headers.get('X-Status-Reason'),
      text,
      json: text ? JSON.parse(text) : null,
    };
  };

  beforeAll(async () => {
    crm = await startSandboxCrm({ now: () => new Date(clock), password: 'secret-pw', seed: 7 });
  });
  afterAll(() => crm.stop());

  it('accepts X-Api-Key, Basic user:password and Basic base64(apiKey); anything else is 401', async () => {
    const get = (headers: Record<string, string>) => fetch(api('/App/user'), { headers });
    expect((await get({ 'X-Api-Key': crm.apiKey })).status).toBe(200);
    const basic = Buffer.from(`${crm.username}:secret-pw`).toString('base64');
    expect((await get({ Authorization: `Basic ${basic}` })).status).toBe(200);
    expect((await get({ Authorization: `Basic ${Buffer.from(crm.apiKey).toString('base64')}` })).status).toBe(
      200,
    );
    const bad = await get({ 'X-Api-Key': 'wrong' });
    expect(bad.status).toBe(401);
    expect(await bad.text()).toBe('');
    expect((await get({})).status).toBe(401);
    const user = (await (await get({ 'X-Api-Key': crm.apiKey })).json()) as { user: { userName: string } };
    expect(user.user.userName).toBeTruthy();
  });

  it('creates records with 17-character ids, wire datetimes and link names', async () => {
    const content = await call('POST', '/ContentProduction', {
      name: 'Ep 1',
      stage: 'Scheduled',
      scheduledDate: '2026-03-10 15:30:00',
    });
    expect(content.status).toBe(200);
    expect(content.json.id).toMatch(/^[a-z0-9]{17}$/);
    expect(content.json.createdAt).toBe('2026-03-01 12:00:00');
    expect(content.json.modifiedAt).toBe('2026-03-01 12:00:00');
    expect(content.json.scheduledDate).toBe('2026-03-10 15:30:00');
    expect(content.json.platforms).toEqual([]);
    const guest = await call('POST', '/GuestBooking', { name: 'Ada', contentProductionId: content.json.id });
    expect(guest.json.contentProductionName).toBe('Ep 1');
    expect(guest.json.stage).toBe('Outreach');
  });

  it('refuses bad values with 400 and the reason in X-Status-Reason (empty body)', async () => {
    const badEnum = await call('POST', '/SocialPost', { content: 'x', status: 'Posted' });
    expect(badEnum.status).toBe(400);
    expect(badEnum.reason).toContain("'status'");
    expect(badEnum.text).toBe('');
    const isoDate = await call('POST', '/ContentProduction', {
      name: 'x',
      scheduledDate: '2026-03-10T15:30:00Z',
    });
    expect(isoDate.status).toBe(400);
    expect(isoDate.reason).toContain('YYYY-MM-DD HH:mm:ss');
    expect((await call('POST', '/ContentProduction', { stage: 'Planning' })).reason).toContain(
      "'name' is required",
    );
    expect((await call('POST', '/Clip', { name: 'c', contentProductionId: 'nope' })).status).toBe(400);
    expect(
      (await call('POST', '/Clip', { name: 'c', aspectRatio: 'Portrait 9:16', targetPlatforms: ['Fax'] }))
        .status,
    ).toBe(400);
  });

  it('answers 404 for unknown entities and ids, with a reason', async () => {
    const entity = await call('GET', '/Account');
    expect(entity.status).toBe(404);
    expect(entity.reason).toBeTruthy();
    expect((await call('GET', '/ContentProduction/aaaaaaaaaaaaaaaaa')).status).toBe(404);
    expect((await call('PUT', '/ContentProduction/aaaaaaaaaaaaaaaaa', { stage: 'Editing' })).status).toBe(
      404,
    );
    expect((await call('DELETE', '/ContentProduction/aaaaaaaaaaaaaaaaa')).status).toBe(404);
  });

  it('PUT and PATCH take only the changed fields and return the full record', async () => {
    const created = (await call('POST', '/ContentProduction', { name: 'Ep 2', description: 'notes' })).json;
    clock += 60_000;
    const put = await call('PUT', `/ContentProduction/${created.id}`, { stage: 'Editing' });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ id: created.id, name: 'Ep 2', description: 'notes', stage: 'Editing' });
    expect(put.json.modifiedAt).toBe('2026-03-01 12:01:00');
    expect(put.json.createdAt).toBe('2026-03-01 12:00:00');
    const patch = await call('PATCH', `/ContentProduction/${created.id}`, { stage: 'Review' });
    expect(patch.json.stage).toBe('Review');
    const del = await call('DELETE', `/ContentProduction/${created.id}`);
    expect(del.status).toBe(200);
    expect((await call('GET', `/ContentProduction/${created.id}`)).status).toBe(404);
  });

  it('answers 409 for a duplicate guest email unless the duplicate check is skipped', async () => {
    await call('POST', '/GuestBooking', { name: 'Dup One', email: 'dup@example.com' });
    const dup = await call('POST', '/GuestBooking', { name: 'Dup Two', email: 'DUP@example.com' });
    expect(dup.status).toBe(409);
    expect(dup.json[0].name).toBe('Dup One');
    const skipped = await call(
      'POST',
      '/GuestBooking',
      { name: 'Dup Two', email: 'dup@example.com' },
      {
        'X-Skip-Duplicate-Check': 'true',
      },
    );
    expect(skipped.status).toBe(200);
  });

  it('pages past 200 with offset, refuses maxSize above 200 with 403, defaults to 20', async () => {
    for (let i = 0; i < 230; i++)
      crm.create('Clip', { name: `clip ${String(i).padStart(3, '0')}`, duration: i });
    const refused = await call('GET', '/Clip?maxSize=201');
    expect(refused.status).toBe(403);
    expect(refused.reason).toMatch(/200/);
    const first = await call('GET', '/Clip?maxSize=200&offset=0&orderBy=name&order=asc');
    expect(first.json.total).toBe(230);
    expect(first.json.list).toHaveLength(200);
    const second = await call('GET', '/Clip?maxSize=200&offset=200&orderBy=name&order=asc');
    expect(second.json.list).toHaveLength(30);
    const names = [...first.json.list, ...second.json.list].map((c: { name: string }) => c.name);
    expect(new Set(names).size).toBe(230);
    expect(names[0]).toBe('clip 000');
    expect(names[229]).toBe('clip 229');
    expect((await call('GET', '/Clip')).json.list).toHaveLength(20);
    const desc = await call('GET', '/Clip?maxSize=3&orderBy=duration&order=desc');
    expect(desc.json.list.map((c: { duration: number }) => c.duration)).toEqual([229, 228, 227]);
  });

  it('filters with where[i][type]=equals|in|isNull|isNotNull and selects attributes', async () => {
    const show = crm.create('ContentProduction', { name: 'Filter show' });
    const a = crm.create('SocialPost', {
      content: 'a',
      status: 'Scheduled',
      contentProductionId: show.id,
      postsvcId: 'P1',
    });
    crm.create('SocialPost', { content: 'b', status: 'Draft', contentProductionId: show.id });
    crm.create('SocialPost', { content: 'c', status: 'Failed' });
    const q = (params: string) => call('GET', `/SocialPost?${params}`);
    const byContent = await q(
      `where[0][type]=equals&where[0][attribute]=contentProductionId&where[0][value]=${show.id}`,
    );
    expect(byContent.json.total).toBe(2);
    const both = await q(
      `where[0][type]=equals&where[0][attribute]=contentProductionId&where[0][value]=${show.id}` +
        '&where[1][type]=in&where[1][attribute]=status&where[1][value][]=Scheduled&where[1][value][]=Failed',
    );
    expect(both.json.list.map((p: { id: string }) => p.id)).toEqual([a.id]);
    expect((await q('where[0][type]=isNotNull&where[0][attribute]=postsvcId')).json.total).toBe(1);
    expect((await q('where[0][type]=isNull&where[0][attribute]=contentProductionId')).json.total).toBe(1);
    const selected = await q('select=status&where[0][type]=isNotNull&where[0][attribute]=postsvcId');
    expect(selected.json.list).toEqual([{ id: a.id, status: 'Scheduled' }]);
    expect((await q('where[0][type]=sortOf&where[0][attribute]=status')).status).toBe(400);
    expect((await q('where[0][type]=equals&where[0][attribute]=nope&where[0][value]=1')).status).toBe(400);
  });

  it('runs the server-side hooks: a clip counts on its content; a CVideo updates its CEpisode', async () => {
    const content = crm.create('ContentProduction', { name: 'Hooked episode' });
    crm.create('Clip', { name: 'clip one', contentProductionId: content.id });
    await call('POST', '/Clip', { name: 'clip two', contentProductionId: content.id });
    expect(crm.get('ContentProduction', content.id)).toMatchObject({
      ampClipsCut: 2,
      ampClipsStatus: 'Clips Available',
    });
    expect(crm.notifications().filter((n) => n.id === content.id)).toHaveLength(2);

    const episode = crm.create('CEpisode', { name: 'Episode 9' });
    const video = crm.create('CVideo', { name: 'master', episodeId: episode.id });
    await call('PUT', `/CVideo/${video.id}`, {
      recordingStatus: 'Completed',
      transcript: 'Hello / world',
      aiAnalysis: { topics: ['radio'] },
      clipsCreated: 3,
    });
    await call('PUT', `/CVideo/${video.id}`, { editStatus: 'Completed', clipsCreated: 4 });
    expect(crm.get('CEpisode', episode.id)).toMatchObject({
      ampRecordingStatus: 'Completed',
      ampEditStatus: 'Completed',
      transcript: 'Hello / world',
      aiAnalysis: { topics: ['radio'] },
      ampClipsCut: 4,
    });
  });
});
