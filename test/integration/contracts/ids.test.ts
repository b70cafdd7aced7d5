import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxPeers, type SandboxPeers } from '../../../main/sandbox/index.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * Every id the API takes is 1–64 characters, well-formed UTF-16, without control characters
 * (issue #12.7): refused with 400 VALIDATION_ERROR naming the field before any peer is asked.
 * A 100,000-character socialPostId used to reach the CRM, which answered 431: a 500 here.
 */

let peers: SandboxPeers;
let bridge: TestBridge;

beforeAll(async () => {
  peers = await startSandboxPeers();
  bridge = await startTestBridge({
    CRM_URL: peers.crm.url,
    CRM_API_KEY: peers.crm.apiKey,
    POSTSVC_URL: peers.postsvc.url,
    POSTSVC_API_KEY: peers.postsvc.apiKey,
    GATEWAY_URL: peers.gateway.url,
    GATEWAY_API_KEY: peers.gateway.apiKey,
    AUTOMATION_URL: peers.automation.url,
  });
});
afterAll(async () => {
  await bridge?.close();
  await peers?.stop();
});

const huge = 'x'.repeat(100_000);
const tooLong = 'x'.repeat(65);
const loneSurrogate = 'rec\ud800';
const control = 'rec\u0000id';
const c1 = 'rec\u0085id';

type Case = [label: string, method: string, path: string, body: unknown, field: string, rule: string];

const cases: Case[] = [
  [
    'retry a 100k socialPostId',
    'POST',
    '/api/posts/retry',
    { socialPostId: huge },
    'body.socialPostId',
    'is 100000 characters long, at most 64',
  ],
  [
    'retry a lone-surrogate socialPostId',
    'POST',
    '/api/posts/retry',
    { socialPostId: loneSurrogate },
    'body.socialPostId',
    'unpaired surrogate',
  ],
  ['delete a post by a NUL id', 'POST', '/postsvc/delete', { id: control }, 'body.id', 'control characters'],
  ['delete a post by a 65-char id', 'POST', '/postsvc/delete', { id: tooLong }, 'body.id', 'at most 64'],
  [
    'analytics of a C1 postId',
    'GET',
    `/postsvc/analytics?postId=${encodeURIComponent(c1)}`,
    undefined,
    'query.postId',
    'control characters',
  ],
  [
    'analytics of a 65-char postId',
    'GET',
    `/postsvc/analytics?postId=${tooLong}`,
    undefined,
    'query.postId',
    'at most 64',
  ],
  [
    'delete a 100-char broadcastId',
    'POST',
    '/streamhost/delete-broadcast',
    { broadcastId: 'b'.repeat(100) },
    'body.broadcastId',
    'at most 64',
  ],
  [
    'status of a 100-char broadcastId',
    'GET',
    `/streamhost/status/${'b'.repeat(100)}`,
    undefined,
    'params.broadcastId',
    'at most 64',
  ],
  [
    'status of a broadcastId with a newline',
    'GET',
    '/streamhost/status/ab%0Acd',
    undefined,
    'params.broadcastId',
    'control characters',
  ],
  [
    'create a broadcast on a 100-char channel',
    'POST',
    '/streamhost/create-broadcast',
    { name: 'Live', scheduledAt: '2030-01-01T10:00:00Z', channelId: 'c'.repeat(100) },
    'body.channelId',
    'at most 64',
  ],
  [
    'draft a clip for a lone-surrogate production',
    'POST',
    '/clips/create-draft',
    { contentProductionId: loneSurrogate, hookQuote: 'Hook', startTime: 0, endTime: 30 },
    'body.contentProductionId',
    'unpaired surrogate',
  ],
  [
    'analyze for a NUL production',
    'POST',
    '/clips/analyze',
    { contentProductionId: control, transcript: 'Hello there.' },
    'body.contentProductionId',
    'control characters',
  ],
  [
    'publishing of a C1 production',
    'GET',
    `/api/publishing?contentProductionId=${encodeURIComponent(c1)}`,
    undefined,
    'query.contentProductionId',
    'control characters',
  ],
  [
    'retry publishing a record with a tab',
    'POST',
    '/api/publishing/rec%09id/retry',
    undefined,
    'params.id',
    'control characters',
  ],
  [
    'timeline of a 65-char guest',
    'GET',
    `/api/guests/${tooLong}/timeline`,
    undefined,
    'params.id',
    'at most 64',
  ],
  [
    'move a guest with a DEL in the id',
    'POST',
    '/api/guests/g%7Fid/stage',
    { stage: 'Confirmed' },
    'params.id',
    'control characters',
  ],
  [
    'preview a template for a lone-surrogate guest',
    'POST',
    '/guests/templates/preview',
    { moment: 'outreach', guestId: loneSurrogate },
    'body.guestId',
    'unpaired surrogate',
  ],
  [
    'ingest metrics for a C1 contentId',
    'POST',
    '/analytics/content-ingest',
    { contentId: c1, platform: 'videosite', views: 1 },
    'body.contentId',
    'control characters',
  ],
  [
    'ingest metrics with a 100-char platformContentId',
    'POST',
    '/analytics/content-ingest',
    { contentId: 'c1', platform: 'videosite', platformContentId: 'v'.repeat(100), views: 1 },
    'body.platformContentId',
    'at most 64',
  ],
  [
    'content metrics of a NUL contentId',
    'GET',
    '/analytics/content-metrics?contentId=a%00b',
    undefined,
    'query.contentId',
    'control characters',
  ],
];

describe('ids through the API (issue #12.7)', () => {
  it.each(cases)('%s → 400 naming %4$s', async (_label, method, path, body, field, rule) => {
    const response = await bridge.call(method, path, body === undefined ? {} : { body });
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.body.error).toContain(`${field}: `);
    expect(response.body.error).toContain(rule);
  });

  it('still accepts a 64-character id (then answers for the record: 404)', async () => {
    const response = await bridge.call('GET', `/api/guests/${'g'.repeat(64)}/timeline`);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});

describe('webhook item ids (issue #12.7)', () => {
  const send = (body: unknown) =>
    bridge.call('POST', '/webhooks/social-updated', {
      body,
      key: null,
      headers: { 'X-Api-Key': 'test-key-0123456789abcdef' },
    });

  it('an item id with an unpaired surrogate is 400 naming the item, nothing logged', async () => {
    const before = await bridge.call('GET', '/api/activity?type=webhook.received&limit=500');
    const response = await send([
      { id: 'sp-1', status: 'Scheduled' },
      { id: loneSurrogate, status: 'Scheduled' },
    ]);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.body.error).toContain('body.1.id: ');
    expect(response.body.error).toContain('unpaired surrogate');
    const after = await bridge.call('GET', '/api/activity?type=webhook.received&limit=500');
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it('a single-object item whose id holds a control character is 400 naming the id', async () => {
    const response = await send({ id: 'sp\u0001', status: 'Scheduled' });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('body.id: must not contain control characters');
  });
});
