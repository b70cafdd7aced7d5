import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/** Sandbox mode as a person trying the app sees it: demo data, simulated peers, real webhooks. */
let bridge: TestBridge;
beforeAll(async () => {
  bridge = await startTestBridge({ BRIDGE_SANDBOX: '1' });
});
afterAll(() => bridge?.close());

interface View {
  id: string;
  name: string | null;
  platform: string | null;
  state: string;
  status: string | null;
  waitingOn: string | null;
  platformUrl: string | null;
  streamUrl: string | null;
  streamKey: string | null;
  apiResponse: string | null;
}
const allRecords = async (): Promise<View[]> => {
  const response = await bridge.call('GET', '/api/publishing');
  expect(response.status).toBe(200);
  return response.body.data.flatMap((group: { records: View[] }) => group.records);
};
const byName = async (name: string) => (await allRecords()).find((r) => r.name === name);

describe('sandbox mode: publishing and broadcasts', () => {
  it('shows the demo episode’s Streamhost record waiting on Videosite, and publishes both once Videosite is queued', async () => {
    const streamhost = await byName('Live Q&A · Streamhost (waits for Videosite)');
    const videosite = await byName('Live Q&A · Videosite');
    expect(streamhost).toMatchObject({ state: 'waiting', waitingOn: 'Videosite', status: 'Queued' });
    expect(videosite).toMatchObject({ state: 'draft', status: 'Draft' });

    const retry = await bridge.call('POST', `/api/publishing/${videosite!.id}/retry`);
    expect(retry.body).toMatchObject({ success: true, status: 'Queued' });
    const published = await eventually(async () => {
      const after = await byName('Live Q&A · Streamhost (waits for Videosite)');
      return after?.state === 'published' ? after : undefined;
    }, 15_000);
    const primary = await byName('Live Q&A · Videosite');
    expect(primary).toMatchObject({
      state: 'published',
      platformUrl: expect.stringContaining('videosite.example'),
    });
    expect(published?.streamUrl).toBe(primary!.streamUrl);
    expect(published?.streamKey).toBe(primary!.streamKey);
    expect(published?.streamKey).toMatch(/^••••/);

    const activity = (await bridge.call('GET', '/api/activity?type=publish.dependents')).body.data;
    expect(activity[0]?.message).toContain('publishing 1 waiting record(s) (Streamhost)');
  });

  it('retries the demo’s failed upload from the panel', async () => {
    const failed = await byName('Ep 4 · Altvideo');
    expect(failed).toMatchObject({ state: 'failed', apiResponse: expect.stringContaining('AUTH_ERROR') });
    expect((await bridge.call('POST', `/api/publishing/${failed!.id}/retry`)).status).toBe(200);
    const after = await eventually(async () => {
      const record = await byName('Ep 4 · Altvideo');
      return record?.state === 'published' ? record : undefined;
    }, 15_000);
    expect(after).toMatchObject({
      apiResponse: null,
      platformUrl: expect.stringContaining('altvideo.example'),
    });
  });

  it('lists and syncs the demo broadcasts, and creates and deletes one', async () => {
    const listed = await bridge.call('GET', '/api/broadcasts');
    expect(listed.body.data.length).toBeGreaterThanOrEqual(2);
    expect(listed.body.data.every((b: { streamhostId: string | null }) => b.streamhostId !== null)).toBe(
      true,
    );
    const sync = await bridge.call('POST', '/streamhost/sync');
    expect(sync.body).toMatchObject({ success: true, errors: 0 });
    expect(sync.body.synced).toBe(listed.body.data.length);

    const created = await bridge.call('POST', '/streamhost/create-broadcast', {
      body: {
        name: 'Sandbox check',
        scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
        channelId: 'backup',
      },
    });
    expect(created.status).toBe(200);
    const status = await bridge.call('GET', `/streamhost/status/${created.body.broadcastId}`);
    expect(status.body.broadcast).toMatchObject({ name: 'Sandbox check', status: 'created' });
    const deleted = await bridge.call('POST', '/streamhost/delete-broadcast', {
      body: { broadcastId: created.body.broadcastId },
    });
    expect(deleted.status).toBe(200);
    const after = await bridge.call('GET', '/api/broadcasts');
    expect(after.body.data.some((b: { id: string }) => b.id === created.body.recordId)).toBe(false);
  });
});
