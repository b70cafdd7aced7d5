import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from '@playwright/test';

/**
 * Caption files read as players read them (issue #39.2): SRT through FFmpeg's SRT decoder (to ASS,
 * its override tags dropped: what is shown), WebVTT through Chromium's parser (a <track> of a
 * <video>, each cue's getCueAsHTML() text). Each answers the cues' texts, lines joined by "\n".
 */
export function ffmpegSrtTexts(ffmpeg: string, srt: string): string[] {
  const ass = execFileSync(
    ffmpeg,
    ['-v', 'error', '-f', 'srt', '-i', 'pipe:0', '-c:s', 'ass', '-f', 'ass', 'pipe:1'],
    {
      input: srt,
      encoding: 'utf8',
    },
  );
  return ass
    .split('\n')
    .filter((line) => line.startsWith('Dialogue:'))
    .map((line) => line.split(',').slice(9).join(','))
    .map((text) =>
      text
        .replace(/\{\\[^}]*\}/g, '')
        .replace(/\\N/g, '\n')
        .trim(),
    );
}

/** The Chromium the e2e tests drive, with their launch flags. */
export async function chromiumVttTexts(executablePath: string, vtt: string): Promise<string[]> {
  const server = createServer((req, res) => {
    if (req.url === '/captions.vtt') {
      res.writeHead(200, { 'content-type': 'text/vtt; charset=utf-8' }).end(vtt);
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><video><track kind="captions" src="/captions.vtt" default></video>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    // Runs in the page (a string: this file is type-checked without the DOM's types).
    const texts: unknown = await page.evaluate(`(async () => {
      const element = document.querySelector('track');
      element.track.mode = 'hidden';
      if (element.readyState !== HTMLTrackElement.LOADED) {
        await new Promise((resolve, reject) => {
          element.addEventListener('load', resolve);
          element.addEventListener('error', () => reject(new Error('Chromium could not load the WebVTT')));
        });
      }
      return Array.from(element.track.cues ?? [], (cue) => cue.getCueAsHTML().textContent ?? '');
    })()`);
    if (!Array.isArray(texts) || !texts.every((text) => typeof text === 'string'))
      throw new Error('Chromium answered no cue texts');
    return texts;
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** What people read: cue texts as one run of words (SRT's invisible zero-width spaces dropped). */
export const spokenWords = (texts: readonly string[]) =>
  texts
    .join(' ')
    .replace(/\u200b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
