import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { expect, expectFitsWidth, screenshot, test, type BridgeUnderTest } from './fixtures.js';

/**
 * Issue #39 on the dashboard: the take's reel (and rate, audio) on the Recorder page and in the
 * Clips page's take chooser; the exports of an analysis at the take's own frame rate, the chooser
 * saying which rate it used; EDL, OTIO, FCP7 XML and the timeline's captions, named after the take.
 * Screenshots at 1280 and 390 px.
 */
async function recordTake(request: APIRequestContext, bridge: BridgeUnderTest): Promise<string> {
  const headers = { authorization: `Bearer ${bridge.key}` };
  const api = (path: string) => `${bridge.url}/api/recorder${path}`;
  const status = async () =>
    (await (await request.get(api('/status'), { headers })).json()) as {
      connection: { connected: boolean };
      recording: { active: boolean };
    };
  await expect.poll(async () => (await status()).connection.connected).toBe(true);
  expect(
    (await request.post(api('/filename'), { headers, data: { filename: '20261201_Episode_52' } })).ok(),
  ).toBe(true);
  expect(
    (await request.post(`${bridge.url}/api/sandbox/obs`, { headers, data: { action: 'start' } })).ok(),
  ).toBe(true);
  await expect.poll(async () => (await status()).recording.active).toBe(true);
  expect((await request.post(api('/marks'), { headers, data: { label: 'prices' } })).ok()).toBe(true);
  expect(
    (await request.post(`${bridge.url}/api/sandbox/obs`, { headers, data: { action: 'stop' } })).ok(),
  ).toBe(true);
  let name = '';
  await expect
    .poll(async () => {
      const { takes } = (await (await request.get(api('/takes'), { headers })).json()) as {
        takes: Array<{ name: string; stoppedAt: string | null }>;
      };
      name = takes[0]?.stoppedAt ? takes[0].name : '';
      return name;
    })
    .not.toBe('');
  return name;
}

test('the editor’s exports: reel on the take, the take’s frame rate, EDL, OTIO, XML and captions', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const takeName = await recordTake(request, bridge);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/recorder');
  const take = page.getByTestId('take').first();
  await expect(take).toContainText(takeName);
  await screenshot(page, 'editor-takes-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFitsWidth(page, 390);
  await screenshot(page, 'editor-takes-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto('/#/clips');
  await page.getByLabel('Content record', { exact: true }).selectOption({ index: 1 });
  const chooser = page.getByLabel(/^Take/);
  const option = chooser.locator('option', { hasText: takeName }).first();
  await chooser.selectOption({ label: (await option.innerText()).trim() });
  await page
    .getByLabel('Transcript', { exact: true })
    .fill(readFileSync(new URL('../fixtures/transcripts/interview.txt', import.meta.url), 'utf8'));
  await page.getByLabel('Clips', { exact: true }).fill('3');
  await page.getByRole('button', { name: 'Suggest clips' }).click();
  const exportsArea = page.getByTestId('clips-exports');
  await expect(exportsArea).toBeVisible();
  await exportsArea.scrollIntoViewIfNeeded();
  await screenshot(page, 'editor-exports-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(exportsArea.getByTestId('clips-fps-used')).toContainText('fps');
  await expectFitsWidth(page, 390);
  await screenshot(page, 'editor-exports-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The take shows its reel, rate and audio; the chooser on the Clips page its reel.
  const reel = (await option.innerText()).match(/reel ([A-Z0-9]{8})/)?.[1];
  expect(reel).toMatch(/^[A-Z0-9]{8}$/);
  // The fps chooser says which rate it uses: the take's own (the simulated OBS records at 30).
  await expect(exportsArea.getByTestId('clips-fps-used')).toHaveText(/30 fps, the take’s own rate/);
  await expect(exportsArea).toContainText(`Reel ${reel}`);

  const download = async (name: string) => {
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      exportsArea.getByRole('button', { name, exact: true }).click(),
    ]);
    return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
  };
  const edl = await download('EDL');
  expect(edl.name).toBe(`${takeName}-30fps.edl`);
  expect(edl.text).toContain(`001  ${reel} AA/V  C`);
  const otio = await download('OTIO');
  expect(otio.name).toBe(`${takeName}-30fps.otio`);
  expect(JSON.parse(otio.text)).toMatchObject({ OTIO_SCHEMA: 'Timeline.1' });
  const xml = await download('FCP7 XML');
  expect(xml.name).toBe(`${takeName}-30fps.xml`);
  expect(xml.text).toContain('<xmeml version="4">');
  const captions = await download('Captions SRT');
  expect(captions.name).toBe(`${takeName}-timeline.srt`);
  expect(captions.text).toMatch(/^1\n01:00:00,000 --> /);

  await page.getByLabel('EDL frame rate').selectOption('29.97');
  await expect(exportsArea.getByTestId('clips-fps-used')).toHaveText(/29\.97 fps \(drop-frame\), as chosen/);
  await expect(exportsArea.getByRole('status')).toContainText('recorded at 30 fps');
  const chosen = await download('EDL');
  expect(chosen.name).toBe(`${takeName}-29_97fps.edl`);
});
