import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCrm, type SandboxCrm } from '../../../main/sandbox/index.js';
import { callSignedWebhook, startTestBridge, type TestBridge } from '../../support/bridge.js';

const SECRET = 'content-webhook-secret';
let crm: SandboxCrm;
let bridge: TestBridge;

beforeAll(async () => {
  crm = await startSandboxCrm({ warn: () => undefined });
  bridge = await startTestBridge({ CRM_URL: crm.url, CRM_API_KEY: crm.apiKey, CRM_WEBHOOK_SECRETS: SECRET });
  crm.setWebhookTarget({ baseUrl: bridge.url, secret: SECRET, deliveryDelayMs: 60_000 });
});
afterAll(async () => {
  await bridge?.close();
  await crm?.stop();
});

/** The outcome the bridge answered for the last delivery of an event (the CRM keeps the bytes sent, not the answers). */
async function lastOutcome(event: string) {
  const activity = await bridge.call('GET', '/api/activity?type=webhook.received&limit=5');
  expect(activity.body.data[0].message).toContain(event);
  return activity;
}

describe('content and clip webhooks', () => {
  it('records content stages and their times, and nothing else', async () => {
    const content = crm.create('ContentProduction', {
      name: 'Ep 20',
      contentType: 'Episode',
      stage: 'Planning',
      showName: 'The Studio Hour',
    });
    const guest = crm.create('GuestBooking', {
      name: 'Ada Byron',
      stage: 'Scheduled',
      contentProductionId: content.id,
    });
    await crm.flushWebhooks();
    crm.update('ContentProduction', content.id, { stage: 'Scheduled' });
    await crm.flushWebhooks();
    crm.update('ContentProduction', content.id, { description: 'Show notes' });
    await crm.flushWebhooks();
    crm.update('ContentProduction', content.id, { stage: 'Recording' });
    await crm.flushWebhooks();
    await lastOutcome('content-updated');

    const timeline = await bridge.call('GET', `/api/guests/${guest.id}/timeline`);
    expect(
      timeline.body.contentStages.map(
        (s: { stage: string; previousStage: string | null; source: string }) => [
          s.previousStage,
          s.stage,
          s.source,
        ],
      ),
    ).toEqual([
      [null, 'Planning', 'created'],
      ['Planning', 'Scheduled', 'webhook'],
      ['Scheduled', 'Recording', 'webhook'],
    ]);
    for (const entry of timeline.body.contentStages)
      expect(Number.isNaN(Date.parse(entry.enteredAt))).toBe(false);
    // Nothing was written back to the content record by the bridge.
    expect(crm.get('ContentProduction', content.id)?.modifiedByName).not.toBe('API user');
  });

  it('checks clips against the platform table and surfaces what does not fit', async () => {
    const content = crm.create('ContentProduction', {
      name: 'Ep 21',
      contentType: 'Episode',
      stage: 'Editing',
    });
    const clip = crm.create('Clip', {
      name: 'Too long for Shorts',
      status: 'Draft',
      duration: 71,
      aspectRatio: 'Portrait 9:16',
      targetPlatforms: ['Videosite Shorts', 'Photogram Reels', 'Microblog'],
      contentProductionId: content.id,
    });
    await crm.flushWebhooks();
    const clipDelivery = crm.deliveries().find((d) => d.event === 'clip-created' && d.body.includes(clip.id));
    expect(clipDelivery?.status).toBe(200);
    const warn = await bridge.call('GET', '/api/activity?type=clips.fit');
    expect(warn.body.data[0]).toMatchObject({ level: 'warn' });
    expect(warn.body.data[0].message).toBe(
      'Clip "Too long for Shorts" does not fit: Videosite Shorts: 71 s is longer than its 60 s maximum; Microblog: prefers 16:9 or 1:1, the clip exists in 9:16 only',
    );
    expect(warn.body.data[0].data.problems).toHaveLength(2);

    // The CRM's own hook counted the clip; the bridge did not touch the content.
    expect(crm.get('ContentProduction', content.id)?.ampClipsCut).toBe(1);

    // Fixed in the CRM: shorter, with a square version. Checked again, no new warning.
    crm.update('Clip', clip.id, { duration: 55, videoUrlSquare: 'https://media.example/clip-1x1.mp4' });
    await crm.flushWebhooks();
    const after = await bridge.call('GET', '/api/activity?type=clips.fit');
    expect(after.body.data).toHaveLength(1);
    // A status change alone is not re-checked.
    crm.update('Clip', clip.id, { status: 'Editing' });
    await crm.flushWebhooks();
    expect((await bridge.call('GET', '/api/activity?type=clips.fit')).body.data).toHaveLength(1);
  });

  it('answers a single-object clip webhook with the outcome (the spec form)', async () => {
    const clip = crm.create('Clip', {
      name: 'Long landscape',
      duration: 700,
      aspectRatio: 'Landscape 16:9',
      targetPlatforms: ['Shortvideo'],
    });
    const raw = JSON.stringify({ id: clip.id, name: 'Long landscape' });
    const response = await callSignedWebhook(bridge.url, 'clip-created', raw, {
      webhookId: 'wh-test',
      secret: SECRET,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      fits: false,
      checked: ['Shortvideo'],
      problems: [
        'Shortvideo: 11:40 is longer than its 10 min maximum',
        'Shortvideo: prefers 9:16, the clip exists in 16:9 only',
      ],
    });
  });
});
