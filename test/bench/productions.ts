import { execSync } from 'node:child_process';
import path from 'node:path';
import { chromium } from '@playwright/test';
import Database from 'better-sqlite3';
import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { TEST_API_KEY } from '../support/bridge.js';
import { startSandboxCrm, startSandboxObs, toCrmDatetime } from '../../main/sandbox/index.js';
import { eventually } from '../support/wait.js';
import { startBuiltBridge } from './built-bridge.js';
import { percentile, type Bench, type BenchResult } from './report.js';

const CALLS = Number(process.env.BENCH_PRODUCTIONS_CALLS ?? 100);
const WARMUP = 20;
const PLATFORMS = ['videosite', 'altvideo', 'podcast'];

/**
 * Issue #42.5: GET /api/productions/{id} for a production with 50 posts, 10 takes (2 marks each),
 * 20 clips and 90 days of content metrics (6-hourly, three platforms), against the sandbox CRM
 * on loopback and the built bridge. Timed from the request to the parsed answer, one at a time.
 * Target: ≤ 150 ms. Then the page in Chromium: from the answer's last byte (its resource
 * timing) to the thread drawn (the page's `production-drawn` mark), on the page's clock; ≤ 300 ms.
 */
export const productionsBench: Bench = {
  name: 'productions',
  async run(): Promise<BenchResult[]> {
    const now = Date.now();
    const crm = await startSandboxCrm();
    const obs = await startSandboxObs();
    const bridge = await startBuiltBridge(
      { CRM_URL: crm.url, CRM_API_KEY: crm.apiKey, RECORDER_OBS_URL: obs.url },
      { logLevel: 'warn' },
    );
    try {
      const episode = crm.create('ContentProduction', {
        name: 'Bench Episode 12',
        contentType: 'Episode',
        stage: 'Publishing',
        scheduledDate: toCrmDatetime(new Date(now - 90 * 86_400_000)),
      });
      crm.create('GuestBooking', { name: 'Bench Guest', stage: 'Recorded', contentProductionId: episode.id });
      for (let i = 0; i < 50; i++) {
        crm.create('SocialPost', {
          content: `Bench post ${i} about episode 12`,
          platform: 'Microblog',
          status: i % 5 === 0 ? 'Failed' : 'Draft',
          contentProductionId: episode.id,
        });
      }
      for (let i = 0; i < 20; i++) {
        crm.create('Clip', { name: `Bench clip ${i}`, status: 'Draft', contentProductionId: episode.id });
      }
      await eventually(
        async () => (await bridge.call('GET', '/api/recorder/status')).body.connection.connected,
      );
      for (let i = 0; i < 10; i++) {
        await bridge.call('POST', '/api/recorder/filename', {
          body: { filename: `bench_episode_12_take_${i}`, contentProductionId: episode.id },
        });
        obs.startRecording();
        await eventually(
          async () => (await bridge.call('GET', '/api/recorder/status')).body.recording.active,
        );
        await bridge.call('POST', '/api/recorder/marks', { body: { label: 'a' } });
        await bridge.call('POST', '/api/recorder/marks', { body: { label: 'b' } });
        obs.stopRecording();
        await eventually(
          async () => !(await bridge.call('GET', '/api/recorder/status')).body.recording.active,
        );
      }
      // 90 days of collected content metrics, written where the analytics area keeps them.
      const db = new Database(path.join(bridge.dataDir, 'bridge.sqlite'));
      const insert = db.prepare(
        `INSERT INTO content_metrics (content_id, content_name, platform, platform_content_id, views, watch_hours,
           likes, comments, shares, collected_at) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`,
      );
      db.transaction(() => {
        for (let slot = 0; slot < 90 * 4; slot++) {
          const at = new Date(now - (90 * 4 - slot) * 6 * 3_600_000).toISOString();
          for (const platform of PLATFORMS)
            insert.run(episode.id, 'Bench Episode 12', platform, slot * 10, slot, slot, 1, 1, at);
        }
      })();
      db.close();

      const times: number[] = [];
      let wrong = 0;
      for (let i = 0; i < WARMUP + CALLS; i++) {
        const started = performance.now();
        const answer = await bridge.call('GET', `/api/productions/${episode.id}`);
        const elapsed = performance.now() - started;
        const body = answer.body as {
          posts: unknown[];
          takes: unknown[];
          clips: unknown[];
          missing: unknown[];
        };
        if (
          answer.status !== 200 ||
          body.posts.length !== 50 ||
          body.takes.length !== 10 ||
          body.clips.length !== 20
        )
          wrong++;
        if (i >= WARMUP) times.push(elapsed);
      }
      const draws = await drawTimes(bridge.url, episode.id);
      return [
        {
          name: 'production page drawn after its answer (Chromium)',
          figures: { 'p50 ms': percentile(draws, 50), 'max ms': Math.max(...draws) },
          note: `${draws.length} fresh loads of #/productions/<id>; target ≤ 300 ms`,
        },
        {
          name: 'GET /api/productions/{id}: 50 posts, 10 takes, 20 clips, 90 days of metrics',
          figures: {
            'p50 ms': percentile(times, 50),
            'p99 ms': percentile(times, 99),
            'max ms': Math.max(...times),
            wrong,
          },
          note: `${CALLS} calls one at a time after ${WARMUP} warm-up, sandbox CRM on loopback; target ≤ 150 ms`,
        },
      ];
    } finally {
      await bridge.close();
      await obs.stop();
      await crm.stop();
    }
  },
};

const DRAWS = 7;

/** Answer's responseEnd → the `production-drawn` mark, for fresh loads of the production's page. */
async function drawTimes(baseUrl: string, id: string): Promise<number[]> {
  const browser = await chromium.launch({
    executablePath:
      process.env.CHROMIUM_PATH?.trim() || execSync('command -v chromium', { encoding: 'utf8' }).trim(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const times: number[] = [];
  try {
    for (let i = 0; i < DRAWS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript({
        content: `localStorage.setItem(${JSON.stringify(API_KEY_STORAGE_KEY)}, ${JSON.stringify(TEST_API_KEY)});`,
      });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/#/productions/${encodeURIComponent(id)}`);
      const drawn = await page.waitForFunction(
        (path) => {
          const mark = performance.getEntriesByName('production-drawn')[0];
          const answer = performance.getEntriesByType('resource').find((entry) => entry.name.includes(path));
          const end =
            answer && 'responseEnd' in answer && typeof answer.responseEnd === 'number'
              ? answer.responseEnd
              : null;
          return mark && end !== null ? mark.startTime - end : null;
        },
        `/api/productions/${encodeURIComponent(id)}`,
        { timeout: 30_000 },
      );
      const ms = (await drawn.jsonValue()) as number;
      if (i > 0) times.push(ms); // the first load warms the bridge's file cache
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return times;
}
