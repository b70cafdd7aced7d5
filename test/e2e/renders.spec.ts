import type { APIRequestContext } from '@playwright/test';
import { expect, screenshot, test, type BridgeUnderTest } from './fixtures.js';

/**
 * Issue #43.5 in the dashboard: a reviewed clip of a take the sandbox's simulated OBS wrote (a
 * small real file, FFmpeg on PATH) rendered from its card: formats, captions, the window placed on
 * the preview frame, the file playing with its size, length and resolution, the upscale note;
 * re-rendered after a nudge (the newer file replaces the older), a render cancelled, a refusal in
 * words; Settings says which FFmpeg renders.
 */

/**
 * Ten sentences of two seconds: the mark at ~3 s pins a clip of at least 15 s (the shortest a clip
 * may be), which a nudge moves by one sentence, still inside the take.
 */
const SENTENCES = [
  'HOST: Welcome back to the studio, everyone.',
  'GUEST: Thanks for having me here today.',
  'HOST: Let us talk about the last quarter.',
  'GUEST: Our costs stayed under five percent of sales.',
  'HOST: That is a remarkable number for a shop.',
  'GUEST: And margins went past forty, which surprised us.',
  'HOST: What changed in the way you buy stock?',
  'GUEST: We order twice a week instead of once a month.',
  'HOST: Smaller orders, fresher shelves, fewer losses.',
  'GUEST: Exactly, and our suppliers liked it too.',
];
const srtTime = (seconds: number) => `00:00:${seconds.toFixed(3).padStart(6, '0').replace('.', ',')}`;
const TRANSCRIPT = SENTENCES.map(
  (text, i) => `${i + 1}\n${srtTime(i === 0 ? 0.2 : 2 * i)} --> ${srtTime(2 * i + 2)}\n${text}\n`,
).join('\n');

const api = (bridge: BridgeUnderTest, path: string) => `${bridge.url}${path}`;

/** A take of about 24 s on the simulated OBS, marked at about 3 s; answers its name. */
async function recordTake(request: APIRequestContext, bridge: BridgeUnderTest): Promise<string> {
  const headers = { authorization: `Bearer ${bridge.key}` };
  const status = async () =>
    (await (await request.get(api(bridge, '/api/recorder/status'), { headers })).json()) as {
      connection: { connected: boolean };
      recording: { active: boolean };
    };
  const obs = (action: string) =>
    request.post(api(bridge, '/api/sandbox/obs'), { headers, data: { action } });
  await expect.poll(async () => (await status()).connection.connected).toBe(true);
  const filename = { filename: 'e2e render' };
  expect((await request.post(api(bridge, '/api/recorder/filename'), { headers, data: filename })).ok()).toBe(
    true,
  );
  expect((await obs('start')).ok()).toBe(true);
  await expect.poll(async () => (await status()).recording.active).toBe(true);
  // The simulated OBS records in real time here: the mark and the take's end need real seconds.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const mark = { label: 'costs' };
  expect((await request.post(api(bridge, '/api/recorder/marks'), { headers, data: mark })).ok()).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 21_000));
  expect((await obs('stop')).ok()).toBe(true);
  let name = '';
  await expect
    .poll(async () => {
      const { takes } = (await (
        await request.get(api(bridge, '/api/recorder/takes'), { headers })
      ).json()) as {
        takes: Array<{ name: string; stoppedAt: string | null; marks: unknown[] }>;
      };
      name = takes[0]?.stoppedAt && takes[0].marks.length === 1 ? takes[0].name : '';
      return name;
    })
    .not.toBe('');
  return name;
}

test('renders: a reviewed clip rendered from its card, played, re-rendered, cancelled, refused in words', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  test.setTimeout(300_000);
  const takeName = await recordTake(request, bridge);
  await page.goto('/#/clips');
  const contentSelect = page.getByLabel('Content record', { exact: true });
  await expect(contentSelect.locator('option').nth(1)).toBeAttached();
  await contentSelect.selectOption({ index: 1 });
  const take = page.getByLabel(/^Take/);
  await take.selectOption({
    label: (await take.locator('option', { hasText: takeName }).first().innerText()).trim(),
  });
  await page.getByLabel('Transcript', { exact: true }).fill(TRANSCRIPT);
  await page.getByLabel('Clips', { exact: true }).fill('1');
  await page.getByRole('button', { name: 'Suggest clips' }).click();
  const card = page.getByTestId('clips-suggestions').getByTestId('clip-card').first();
  await expect(card).toContainText('Marked live');

  // The options: 9:16 with captions by default, the window at the centre of the take's frame.
  const panel = card.getByTestId('clip-render');
  await expect(panel.getByRole('checkbox', { name: /^9:16/ })).toBeChecked();
  await expect(panel.getByRole('checkbox', { name: /^1:1/ })).not.toBeChecked();
  await expect(panel.getByRole('checkbox', { name: 'Burn in captions' })).toBeChecked();
  const frame = panel.getByTestId('crop-picker').locator('img');
  await expect.poll(() => frame.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  const slider = panel.getByRole('slider');
  await expect(slider).toHaveAttribute('aria-valuetext', 'centre');
  await panel.getByRole('checkbox', { name: /^1:1/ }).check();
  await expect(panel.locator('.cl-crop-window')).toHaveCount(2);
  await slider.fill('30');
  await expect(slider).toHaveAttribute('aria-valuetext', '30% from the left');
  await card.scrollIntoViewIfNeeded();
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, 'renders-options-1280');

  await panel.getByRole('button', { name: 'Render', exact: true }).click();
  const done = panel.locator('[data-testid="render-state"][data-state="done"]');
  await expect(done).toBeVisible({ timeout: 150_000 });
  const facts = done.getByTestId('render-facts');
  await expect(facts).toContainText('9:16 · 1080×1920');
  const lengthOf = async () => Number(/\((\d+\.\d) s\)/.exec(await facts.innerText())?.[1]);
  const cardSeconds = async () =>
    Number(/(\d+) s/.exec(await card.locator('.cl-card-head').innerText())?.[1]);
  expect(Math.round(await lengthOf())).toBe(await cardSeconds());
  await expect(facts).toContainText(' MB');
  // The simulated OBS's take is 640×360: the 9:16 window is enlarged, and the render says so.
  await expect(done).toContainText('9:16: a 202×360 window of the 640×360 take is upscaled');
  const video = done.getByTestId('render-video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 30_000 })
    .toBe(1080);
  expect(await video.evaluate((v: HTMLVideoElement) => v.videoHeight)).toBe(1920);
  const firstSrc = (await video.getAttribute('src')) ?? '';
  expect(firstSrc).toMatch(/\/api\/renders\/[^/]+\/9x16\.mp4\?key=/);
  await done.getByRole('tab', { name: '1:1' }).click();
  await expect(facts).toContainText('1:1 · 1080×1080');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.videoHeight), { timeout: 30_000 })
    .toBe(1080);
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, 'renders-done-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, 'renders-done-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A nudge makes the render out of date; rendering again replaces its files.
  // One sentence more, at whichever end the transcript has one.
  const endsLast = (await card.locator('.cl-time').innerText()).endsWith('0:20');
  await card
    .getByRole('button', { name: endsLast ? 'In: one sentence earlier' : 'Out: one sentence later' })
    .click();
  await expect(card.getByTestId('clip-reviewed')).toBeVisible();
  const firstLength = await lengthOf();
  await expect(done).toContainText('Render again to replace it.');
  await panel.getByRole('checkbox', { name: /^1:1/ }).uncheck();
  await panel.getByRole('button', { name: 'Render again' }).click();
  await expect(done).not.toContainText('Render again to replace it.', { timeout: 150_000 });
  expect(await lengthOf()).toBeCloseTo(firstLength + 2, 0);
  expect(Math.round(await lengthOf())).toBe(await cardSeconds());
  const secondSrc = (await done.getByTestId('render-video').getAttribute('src')) ?? '';
  expect(secondSrc).not.toBe(firstSrc);
  const headers = { authorization: `Bearer ${bridge.key}` };
  const old = await request.get(api(bridge, new URL(firstSrc, bridge.url).pathname), { headers });
  expect(old.status(), 'the older 9:16 file is replaced').toBe(404);

  // Cancel: the render stops, the file made before stays on show.
  await panel.getByRole('checkbox', { name: /^16:9/ }).check();
  await panel.getByRole('button', { name: 'Render again' }).click();
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.locator('[data-testid="render-state"][data-state="cancelled"]')).toContainText(
    'cancelled',
  );
  expect(await lengthOf()).toBeCloseTo(firstLength + 2, 0);

  // A clip past the take's end is refused before any work, in words naming the file.
  await page
    .getByLabel('Transcript', { exact: true })
    .fill(
      '1\n00:00:40,000 --> 00:00:58,000\nGUEST: That one long answer comes well after the take ended, and goes on.\n',
    );
  await page.getByRole('button', { name: 'Suggest clips' }).click();
  const late = page.getByTestId('clips-suggestions').getByTestId('clip-card').first();
  await expect(late).toContainText('well after the take');
  await late.getByRole('button', { name: 'Render', exact: true }).click();
  const refused = late.getByTestId('render-refused');
  await expect(refused).toContainText("Couldn't render");
  await expect(refused).toContainText(takeName);
  await late.scrollIntoViewIfNeeded();
  await screenshot(page, 'renders-refused-1280');

  // Settings says which FFmpeg renders, and what renders take on disk.
  await page.goto('/#/settings');
  const rendering = page.getByTestId('settings-rendering');
  await expect(rendering.getByTestId('rendering-ffmpeg')).toContainText('ffmpeg');
  await expect(rendering.getByTestId('rendering-ffmpeg')).toContainText(/version \d+\.\d+/);
  await expect(rendering.getByTestId('rendering-storage')).toContainText('kept 30 days');
  await rendering.scrollIntoViewIfNeeded();
  await screenshot(page, 'renders-settings-1280');
});
