import { createHash } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, sandboxControlHeaders, screenshot, test, type BridgeUnderTest } from './fixtures.js';

/**
 * Issue #44.5, end to end in the sandbox: a marked take (the simulated OBS's real file), its
 * suggestion drafted and rendered (9:16 only, short), made ready — the Clip Ready in the CRM, the
 * provider's stored media byte-equal to the file rendered — and posted from the clip: the scheduled
 * post carries the clip's accessUrl. Runs in the renders tier (E2E_RENDERS=1: take files on).
 */

/** One sentence from 0.5 s to 2.5 s: the mark at about 1.5 s pins it as it is (a transcript under 15 s). */
const TRANSCRIPT = `1
00:00:00,500 --> 00:00:02,500
GUEST: Our costs stayed under five percent of sales, and margins went past forty.
`;

const auth = (bridge: BridgeUnderTest) => ({ authorization: `Bearer ${bridge.key}` });

async function json<T>(request: APIRequestContext, url: string, headers: Record<string, string>): Promise<T> {
  const response = await request.get(url, { headers });
  expect(response.ok(), url).toBe(true);
  return (await response.json()) as T;
}

/** A take of about 8 s on the simulated OBS (real time), marked at about 1.5 s; answers its id. */
async function recordTake(request: APIRequestContext, bridge: BridgeUnderTest): Promise<number> {
  const headers = auth(bridge);
  const status = () =>
    json<{ connection: { connected: boolean }; recording: { active: boolean } }>(
      request,
      `${bridge.url}/api/recorder/status`,
      headers,
    );
  const obs = (action: string) =>
    request.post(`${bridge.url}/api/sandbox/obs`, { headers, data: { action } });
  await expect.poll(async () => (await status()).connection.connected).toBe(true);
  await request.post(`${bridge.url}/api/recorder/filename`, {
    headers,
    data: { filename: 'e2e clip ready' },
  });
  expect((await obs('start')).ok()).toBe(true);
  await expect.poll(async () => (await status()).recording.active).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(
    (await request.post(`${bridge.url}/api/recorder/marks`, { headers, data: { label: 'costs' } })).ok(),
  ).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 6_500));
  expect((await obs('stop')).ok()).toBe(true);
  let id = 0;
  await expect
    .poll(
      async () => {
        const { takes } = await json<{
          takes: Array<{ id: number; name: string; stoppedAt: string | null; audioChannels: number | null }>;
        }>(request, `${bridge.url}/api/recorder/takes`, headers);
        const take = takes.find((t) => t.name.includes('clip ready') && t.stoppedAt && t.audioChannels === 2);
        id = take?.id ?? 0;
        return id;
      },
      { timeout: 60_000 },
    )
    .not.toBe(0);
  return id;
}

test('clip ready: a marked take to a Ready clip in the CRM and a scheduled post carrying its media', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  test.setTimeout(240_000);
  const headers = auth(bridge);
  const takeId = await recordTake(request, bridge);
  const { data: content } = await json<{ data: Array<{ id: string }> }>(
    request,
    `${bridge.url}/api/crm/content?limit=1`,
    headers,
  );
  const analysed = await request.post(`${bridge.url}/clips/analyze`, {
    headers,
    data: { contentProductionId: content[0]!.id, transcript: TRANSCRIPT, maxClips: 1, takeId },
  });
  expect(analysed.ok(), await analysed.text()).toBe(true);
  const { analysisId } = (await analysed.json()) as { analysisId: string };

  // The analysis reopens from the address (issue #44.3); the suggestion is drafted and rendered from its card.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/#/clips?analysis=${analysisId}`);
  const card = page.getByTestId('clips-suggestions').getByTestId('clip-card').first();
  await card.getByRole('button', { name: 'Create draft clip' }).click();
  await expect(card.getByTestId('clip-draft-created')).toBeVisible();
  const panel = card.getByTestId('clip-render');
  await panel.getByRole('checkbox', { name: 'Burn in captions' }).uncheck();
  await panel.getByRole('button', { name: 'Render', exact: true }).click();
  const ready = panel.getByTestId('render-ready');
  await expect(ready.getByRole('button', { name: 'Make ready' })).toBeVisible({ timeout: 120_000 });
  await ready.getByRole('button', { name: 'Make ready' }).click();
  await expect(ready).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(ready.getByTestId('render-ready-media')).toContainText('9:16');
  await expect(ready.getByTestId('render-ready-media')).toContainText('Thumbnail');
  await ready.scrollIntoViewIfNeeded();
  await screenshot(page, 'clip-ready-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await ready.scrollIntoViewIfNeeded();
  await screenshot(page, 'clip-ready-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // What the bridge, the CRM and the provider hold.
  const { renders } = await json<{
    renders: Array<{
      id: string;
      ready: { clipId: string; media: Array<{ kind: string; accessUrl: string }> } | null;
    }>;
  }>(request, `${bridge.url}/api/renders?analysisId=${analysisId}`, headers);
  const render = renders[0]!;
  const accessUrl = render.ready!.media.find((media) => media.kind === '9x16')!.accessUrl;
  const health = await json<{ peers: { crm: { url: string }; postsvc: { url: string } } }>(
    request,
    `${bridge.url}/health`,
    headers,
  );
  const control = await sandboxControlHeaders(request, bridge);
  const crmBase = health.peers.crm.url.replace(/\/api\/v1\/?$/, '');
  const clips = await json<{ list: Array<Record<string, unknown>> }>(
    request,
    `${crmBase}/__sandbox/records/Clip`,
    control,
  );
  expect(clips.list.find((clip) => clip.id === render.ready!.clipId)).toMatchObject({
    status: 'Ready',
    videoUrlPortrait: accessUrl,
  });
  const rendered = await request.get(`${bridge.url}/api/renders/${render.id}/9x16.mp4`, { headers });
  const renderedHash = createHash('sha256')
    .update(await rendered.body())
    .digest('hex');
  const { media } = await json<{ media: Array<{ accessUrl: string; sha256: string }> }>(
    request,
    `${health.peers.postsvc.url}/__sandbox/media`,
    control,
  );
  expect(media.find((item) => item.accessUrl === accessUrl)?.sha256).toBe(renderedHash);

  // Post this clip: the composer opens with its media and quote; the post scheduled carries the accessUrl.
  await ready.getByRole('link', { name: 'Post this clip' }).click();
  await expect(page).toHaveURL(/#\/posts\?/);
  const text = page.getByLabel('Post', { exact: true }).first();
  await expect(text).toHaveValue(/costs stayed under five percent/);
  // The post links to the clip and its production (issue #44.2), and the composer says so.
  const links = page.getByTestId('post-links');
  await expect(links).toContainText(`From clip ${render.ready!.clipId} of`);
  await expect(links.getByTestId('production-link')).toHaveAttribute(
    'href',
    `#/productions/${encodeURIComponent(content[0]!.id)}`,
  );
  await screenshot(page, 'clip-ready-composer-1280');
  await page.getByRole('button', { name: 'Schedule post' }).click();
  await expect
    .poll(async () => {
      const { posts } = await json<{ posts: Array<{ mediaUrls: string[]; status: string }> }>(
        request,
        `${health.peers.postsvc.url}/__sandbox/posts`,
        control,
      );
      return posts.some((post) => post.status === 'scheduled' && post.mediaUrls.includes(accessUrl));
    })
    .toBe(true);
  // The scheduled post's row carries the production link and the clip id, and the production's thread lists it.
  const { data: listed } = await json<{
    data: Array<{
      source: string;
      mediaUrls: string[];
      contentProductionId: string | null;
      clipId: string | null;
    }>;
  }>(request, `${bridge.url}/api/posts`, headers);
  expect(listed.find((post) => post.source === 'api' && post.mediaUrls.includes(accessUrl))).toMatchObject({
    contentProductionId: content[0]!.id,
    clipId: render.ready!.clipId,
  });
  const thread = await json<{ posts: Array<{ from: string; clipId: string | null }> }>(
    request,
    `${bridge.url}/api/productions/${encodeURIComponent(content[0]!.id)}`,
    headers,
  );
  expect(thread.posts).toContainEqual(
    expect.objectContaining({ from: 'dashboard', clipId: render.ready!.clipId }),
  );
  await page.goto(`/#/productions/${encodeURIComponent(content[0]!.id)}`);
  const row = page.locator('[data-testid="thread-post"][data-from="dashboard"]').first();
  await expect(row).toContainText(`Scheduled from the dashboard · from clip ${render.ready!.clipId}`);
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'clip-ready-production-1280');
});
