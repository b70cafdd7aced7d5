import { execSync } from 'node:child_process';
import { chromium, type Browser } from '@playwright/test';
import type { PostView } from '../../shared/api/posting.js';
import { platformKeys } from '../../shared/platforms.js';
import { startBridge, type RunningBridge } from '../e2e/bridge-process.js';
import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { CALENDAR_MONTH_MARK } from '../../renderer/src/posting/calendar/shown-mark.js';
import { CALENDAR_LIMIT } from '../../renderer/src/posting/calendar/model.js';
import { percentile, type Bench, type BenchResult } from './report.js';

const RUNS = 5;
const POSTS = 2_000;
/** How long the calendar's answer is held back: the Posts page has settled by then (its first render takes ~0.5 s here). */
const ANSWER_AFTER_MS = 2_000;
const statuses = ['scheduled', 'scheduled', 'scheduled', 'published', 'failed', 'cancelled'] as const;

function chromiumPath(): string {
  return process.env.CHROMIUM_PATH?.trim() || execSync('command -v chromium', { encoding: 'utf8' }).trim();
}

/** 2,000 posts spread over the current month's grid, as GET /api/posts answers them. */
function monthOfPosts(): string {
  const first = new Date();
  first.setDate(1);
  first.setHours(0, 0, 0, 0);
  const days = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
  const data: PostView[] = Array.from({ length: POSTS }, (_, i) => {
    const at = new Date(first);
    at.setDate(1 + (i % days));
    at.setHours(6 + (i % 16), (i * 7) % 60);
    const status = statuses[i % statuses.length]!;
    const platforms = [platformKeys[i % platformKeys.length]!];
    return {
      key: `api:${i + 1}`,
      source: 'api',
      socialPostId: null,
      ledgerId: i + 1,
      name: null,
      contentProductionId: null,
      contentProductionName: null,
      clipId: null,
      status,
      crmStatus: null,
      post: `Bench post ${i}: a new episode is out, with a link https://studio.example/${i}`,
      platforms,
      platformStates: [],
      mediaUrls: [],
      scheduleDate: at.toISOString(),
      publishAt: at.toISOString(),
      postsvcId: `bench-${i}`,
      error: status === 'failed' ? 'Page token expired.' : null,
      confirmation: null,
      liveHold: null,
    };
  });
  const quota = { plan: 'business', limit: 500, used: 0, left: 500, resetsAt: new Date().toISOString() };
  return JSON.stringify({ success: true, data, quota, crmError: null });
}

/**
 * Prints, once both are known, the time from the calendar's posts answer fully arriving
 * (`responseEnd` of its resource timing) to the month view's mark (the commit that shows them).
 */
const reportGap = `(() => {
  let arrived = null, shown = null;
  const report = () => { if (arrived !== null && shown !== null) console.log('gap ' + (shown - arrived)); };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.name.includes('/api/posts?') && e.name.includes('limit=${CALENDAR_LIMIT}')) { arrived = e.responseEnd; report(); }
  }).observe({ type: 'resource', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === ${JSON.stringify(CALENDAR_MONTH_MARK)}) { shown = e.startTime; report(); }
  }).observe({ type: 'mark', buffered: true });
})();`;

async function monthGapMs(browser: Browser, bridge: RunningBridge, body: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript({
    content: `localStorage.setItem(${JSON.stringify(API_KEY_STORAGE_KEY)}, ${JSON.stringify(bridge.apiKey)});${reportGap}`,
  });
  // The calendar's request (limit=1000) answered with the month of posts once the rest of the page
  // (composer, list, quota: served by the bridge) has settled, so that the figure is the calendar's
  // own work, not the page's first render that an instant answer would queue behind.
  await context.route(
    (url) => url.pathname === '/api/posts' && url.searchParams.get('limit') === String(CALENDAR_LIMIT),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, ANSWER_AFTER_MS));
      await route.fulfill({ status: 200, contentType: 'application/json', body });
    },
  );
  const page = await context.newPage();
  try {
    const reported = page.waitForEvent('console', {
      predicate: (message) => message.text().startsWith('gap '),
      timeout: 30_000,
    });
    await page.goto(`${bridge.url}/#/posts`);
    return Number((await reported).text().slice('gap '.length));
  } finally {
    await context.close();
  }
}

/**
 * Issue #31.5: the Posts page's month view with 2,000 posts, in Debian's Chromium at 1280×800:
 * from the moment the calendar's answer has arrived to the commit that shows it (parse, check
 * against the contract, group by day, render). Median of 5 fresh browser contexts, after one
 * warm-up; the answer is served by the test (page.route), the rest of the page by a built bridge.
 */
export const calendarBench: Bench = {
  name: 'calendar',
  async run(): Promise<BenchResult[]> {
    const key = 'bench-calendar-key-0123456789';
    const bridge = await startBridge(key, { logName: 'bench-calendar.log' });
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
      ],
    });
    const body = monthOfPosts();
    try {
      await monthGapMs(browser, bridge, body);
      const gaps: number[] = [];
      for (let i = 0; i < RUNS; i++) gaps.push(await monthGapMs(browser, bridge, body));
      return [
        {
          name: 'month view, 2,000 posts, data → shown',
          figures: {
            'median ms': Math.round(percentile(gaps, 50)),
            'max ms': Math.round(Math.max(...gaps)),
          },
          note: `${RUNS} runs after a warm-up, fresh context each, 1280x800, the answer held ${ANSWER_AFTER_MS} ms until the page settled; responseEnd of GET /api/posts?limit=${CALENDAR_LIMIT} → the "${CALENDAR_MONTH_MARK}" mark; all: ${gaps.map((g) => Math.round(g)).join(', ')}`,
        },
      ];
    } finally {
      await browser.close();
      await bridge.stop();
    }
  },
};
