/**
 * Screenshots of issue #14's five control-room states, for its closing note (docs/control-room/):
 *
 *   npx tsx scripts/control-room-shots.ts <built tree> <before|after>
 *
 * Starts the headless bridge of `<built tree>` (its `dist/main/cli.js serve`, built with
 * `npm run build`) in sandbox mode on a free loopback port with a temporary data dir and key,
 * drives Chromium to each state and writes docs/control-room/<before|after>-<state>.png beside
 * this script's repo. The bridge and the browser are always stopped and the data dir removed.
 *
 * "before" is the dashboard of 8d660df, "after" the one of issue #14's fix: the steps differ where
 * the UI does (the old one has no hold, no edit dialog, no ON AIR, no menu). Where the old tree
 * cannot reach a state, the shot is what the operator saw at that moment (docs/control-room/README.md).
 *
 * Chromium: CHROMIUM_PATH, else `chromium` on PATH (Playwright's own download is not used).
 */
import { spawn, execSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect } from '@playwright/test';
import type { Browser, Page } from '@playwright/test';

type Tree = 'before' | 'after';

const outDir = resolve(fileURLToPath(new URL('.', import.meta.url)), '../docs/control-room');
/** Both dashboards keep the pasted key here (renderer/src/api/storage-keys.ts, unchanged since 8d660df). */
const API_KEY_STORAGE_KEY = 'studioBridge.apiKey';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** The demo's "Live Q&A" goes live 45 s after the bridge starts (sandbox gateway) and the bridge reads it every 30 s. */
const LIVE_TIMEOUT_MS = 150_000;

// --- the bridge ---

interface Bridge {
  url: string;
  key: string;
  /** Stops the bridge and removes its data dir; its log too unless `keepLog` (to read after a failure). */
  stop: (keepLog?: boolean) => Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? done(port) : fail(new Error('no free port'))));
    });
  });
}

/** Env of the developer's shell that would point the bridge at real peers or another data dir. */
const bridgeEnvPrefixes = ['BRIDGE_', 'CRM_', 'POSTSVC_', 'GATEWAY_', 'AUTOMATION_', 'COLLECT_', 'PUBLISH_'];

async function startBridge(treeDir: string): Promise<Bridge> {
  const cli = join(treeDir, 'dist/main/cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` in ${treeDir} first`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'control-room-shots-'));
  // The log outlives the data dir, to read after a failed run.
  const logFile = join(tmpdir(), `control-room-shots-${port}.log`);
  const log = createWriteStream(logFile);
  const key = `shots-${randomBytes(16).toString('hex')}`;
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !bridgeEnvPrefixes.some((p) => name.startsWith(p))),
  );
  Object.assign(env, {
    BRIDGE_HOST: '127.0.0.1',
    BRIDGE_PORT: String(port),
    BRIDGE_DATA_DIR: dataDir,
    BRIDGE_API_KEY: key,
    BRIDGE_SANDBOX: '1',
  });
  const child = spawn(process.execPath, [cli, 'serve'], {
    cwd: treeDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  // Whatever ends this script (an error, Ctrl-C, a kill), the bridge does not outlive it.
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  const killOnSignal = (signal: NodeJS.Signals) => {
    killOnExit();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', killOnExit);
  process.once('SIGINT', killOnSignal);
  process.once('SIGTERM', killOnSignal);

  const stop = async (keepLog = true) => {
    process.off('exit', killOnExit);
    process.off('SIGINT', killOnSignal);
    process.off('SIGTERM', killOnSignal);
    await terminate(child);
    await new Promise<void>((done) => log.end(done));
    rmSync(dataDir, { recursive: true, force: true });
    if (!keepLog) rmSync(logFile, { force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child);
  } catch (error) {
    await stop();
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    throw new Error(`${(error as Error).message}\n--- bridge log (${logFile}) ---\n${tail}`);
  }
  console.log(`bridge of ${treeDir} on ${url} (its log, kept if the run fails: ${logFile})`);
  return { url, key, stop };
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  let problem = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`bridge exited during start-up (${child.exitCode ?? child.signalCode})`);
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      problem = `GET /health answered ${response.status}`;
    } catch (error) {
      problem = (error as Error).message;
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`bridge did not answer GET ${url}/health within 30 s (${problem})`);
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** A GET of the bridge's own API with its key. */
async function api<T>(bridge: Bridge, path: string): Promise<T> {
  const response = await fetch(`${bridge.url}${path}`, {
    headers: { authorization: `Bearer ${bridge.key}` },
  });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return (await response.json()) as T;
}

/**
 * A GET of a sandbox peer's control route. Since h12-config these need the sandbox's key in
 * X-Sandbox-Key (the bridge hands it to holders of its key in GET /api/settings); 8d660df has no
 * key and its routes answer anyone.
 */
async function sandboxGet<T>(bridge: Bridge, peer: string, path: string): Promise<T> {
  const health = await api<{ peers: Record<string, { url: string }> }>(bridge, '/health');
  const peerUrl = health.peers[peer]?.url.replace(/\/api\/v1\/?$/, '');
  if (!peerUrl) throw new Error(`the bridge names no sandbox ${peer}`);
  const { sandboxControlKey } = await api<{ sandboxControlKey?: string | null }>(bridge, '/api/settings');
  const headers: Record<string, string> = sandboxControlKey ? { 'X-Sandbox-Key': sandboxControlKey } : {};
  const response = await fetch(`${peerUrl}/__sandbox${path}`, { headers });
  if (!response.ok) throw new Error(`GET ${peer} /__sandbox${path} answered ${response.status}`);
  return (await response.json()) as T;
}

// --- the browser ---

function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH?.trim();
  if (fromEnv) return fromEnv;
  try {
    return execSync('command -v chromium', { encoding: 'utf8', shell: '/bin/sh' }).trim();
  } catch {
    throw new Error('Chromium not found: install it (apt-get install chromium) or set CHROMIUM_PATH');
  }
}

async function openDashboard(browser: Browser, bridge: Bridge, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  // As after the key screen: the browser already holds the key.
  await context.addInitScript(([name, key]) => window.localStorage.setItem(name, key), [
    API_KEY_STORAGE_KEY,
    bridge.key,
  ] as const);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, { timeout: 20_000 });
}

async function shot(page: Page, tree: Tree, state: string, fullPage = false): Promise<void> {
  const path = join(outDir, `${tree}-${state}.png`);
  await page.screenshot({ path, fullPage, animations: 'disabled' });
  console.log(`  ${path}`);
}

// --- the five states ---

interface GuestRow {
  id: string;
  name: string;
  stage: string;
}

/** (a) Moving a guest with no recording date to Confirmed. */
async function guestHold(page: Page, bridge: Bridge, tree: Tree): Promise<void> {
  const guests = (await api<{ data: GuestRow[] }>(bridge, '/api/guests')).data;
  // The e2e suites pick the same demo guest: not confirmed yet, no recording date or episode.
  const guest = guests.find((g) => g.stage === 'Responded') ?? guests.find((g) => g.stage === 'Outreach');
  if (!guest) throw new Error('no demo guest at Responded or Outreach');
  await page.goto(`${bridge.url}/#/guests`);
  await settled(page);
  await page.getByTestId(`guest-card-${guest.id}`).click();
  const detail = page.getByTestId('guest-detail');
  await expect(detail.getByRole('heading', { name: guest.name })).toBeVisible();
  await detail.getByLabel('Move in the CRM to').selectOption('Confirmed');

  if (tree === 'before') {
    // One click moves the guest and starts guest-confirmed at once; the engine gets the empty values.
    await detail.getByRole('button', { name: 'Move', exact: true }).click();
    await expect(detail.getByTestId('run-guest-confirmed')).toContainText('started');
    const engine = page.getByTestId('guests-sandbox-engine');
    await expect(engine).toContainText(guest.name);
    await expect(page.getByTestId('guests-runs')).not.toContainText('queued');
    await engine.scrollIntoViewIfNeeded();
    await shot(page, tree, 'guest-hold');
    // The dashboard shows only the subject; the README quotes the email the engine got.
    type Run = { workflow: string; body: { email?: { subject?: string; body?: string } } };
    const { received } = await sandboxGet<{ received: Run[] }>(bridge, 'automation', '/received');
    const run = received.find((r) => r.workflow === 'guest-confirmed');
    const email = run?.body.email;
    console.log(
      `  the engine got this email:\n    Subject: ${email?.subject}\n    ${email?.body?.replaceAll('\n', '\n    ')}`,
    );
    return;
  }

  await detail.getByRole('button', { name: 'Move…' }).click();
  const confirm = detail.getByRole('alertdialog', { name: `Move ${guest.name} to Confirmed` });
  await expect(confirm.getByTestId('move-missing')).toContainText('Missing:');
  await confirm.scrollIntoViewIfNeeded();
  await shot(page, tree, 'guest-hold-confirm');
  await confirm.getByRole('button', { name: /^Move and hold/ }).click();
  const hold = detail.getByTestId('guest-hold');
  await expect(hold).toContainText('is waiting for:');
  await hold.scrollIntoViewIfNeeded();
  await shot(page, tree, 'guest-hold');
}

/** (b) A Photogram post without media in the composer. */
async function composerMedia(page: Page, bridge: Bridge, tree: Tree): Promise<void> {
  await page.goto(`${bridge.url}/#/posts`);
  await settled(page);
  await page.getByLabel('Post', { exact: true }).fill('Behind the scenes: the new booth, finally finished.');
  await page.getByRole('button', { name: 'Microblog', exact: true }).click(); // off
  await page.getByRole('button', { name: 'Photogram', exact: true }).click();
  if (tree === 'after') {
    await expect(page.getByTestId('media-check-photogram')).toContainText('needs an image or a video');
    await expect(page.getByRole('button', { name: 'Schedule post' })).toBeDisabled();
  } else {
    // The old composer has no media rule: the post is ready to send.
    await expect(page.getByRole('button', { name: 'Schedule post' })).toBeEnabled();
  }
  await page.getByTestId('post-composer').scrollIntoViewIfNeeded();
  await shot(page, tree, 'composer-media');
}

/** (c) The demo's Photogram post that failed yesterday (no media): its time has passed. */
async function failedPostEdit(page: Page, bridge: Bridge, tree: Tree): Promise<void> {
  await page.goto(`${bridge.url}/#/posts`);
  await settled(page);
  const row = page
    .getByTestId('post-list')
    .locator('tr', { hasText: 'Behind the scenes of our overnight session' });
  await expect(row).toContainText('Failed');
  if (tree === 'before') {
    await row.getByRole('button', { name: 'Retry' }).click();
    // The provider's refusal lands on the post itself, word for word.
    await expect(row).toContainText('is in the past');
    await row.scrollIntoViewIfNeeded();
    await shot(page, tree, 'failed-post-edit');
    return;
  }
  await row.getByRole('button', { name: 'Edit…' }).click();
  const dialog = page.getByTestId('reschedule-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('media-check-photogram')).toBeVisible();
  await shot(page, tree, 'failed-post-edit');
}

/** (d) While the demo's "Live Q&A" is live. */
async function onAir(page: Page, bridge: Bridge, tree: Tree): Promise<void> {
  await page.goto(`${bridge.url}/#/broadcasts`);
  await settled(page);
  const row = page.locator('[data-testid="broadcast-row"]', { hasText: 'Live Q&A' });
  await expect(row.getByTestId('broadcast-status')).toHaveText('live', { timeout: LIVE_TIMEOUT_MS });
  if (tree === 'after') await expect(page.getByTestId('on-air')).toContainText('ON AIR');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, tree, 'on-air');
}

/**
 * (e) Posts at 390 px. One picture of what a phone shows, side by side: the top of the page as it
 * opens (the navigation), the navigation menu opened (after only: before has no menu), and the
 * list of posts. Each is cut from the whole page at its full width, so a page wider than the
 * window shows how far it sticks out.
 */
async function narrow(browser: Browser, bridge: Bridge, tree: Tree): Promise<number> {
  const page = await openDashboard(browser, bridge, PHONE);
  await page.goto(`${bridge.url}/#/posts`);
  await settled(page);
  const list = page.getByTestId('post-list');
  await expect(list).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  const cut = (y: number) =>
    page.screenshot({
      fullPage: true,
      animations: 'disabled',
      clip: { x: 0, y, width, height: PHONE.height },
    });
  const panels: Panel[] = [{ caption: 'The page as it opens', png: await cut(0) }];
  if (tree === 'after') {
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(
      page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Posts' }),
    ).toBeVisible();
    panels.push({ caption: 'Menu opened', png: await cut(0) });
    await page.getByRole('button', { name: 'Menu' }).click();
  }
  // The list's panel starts a little above the list (its heading and filters).
  const listTop = await list.evaluate((element) => {
    const panel = element.closest('section') ?? element;
    return panel.getBoundingClientRect().top + window.scrollY;
  });
  panels.push({ caption: 'All posts', png: await cut(Math.max(0, Math.round(listTop) - 8)) });
  await composite(browser, panels, join(outDir, `${tree}-narrow.png`));
  await page.context().close();
  return width;
}

interface Panel {
  caption: string;
  png: Buffer;
}

/** Lays screenshots side by side with a caption each, at their own pixel size, and saves that. */
async function composite(browser: Browser, panels: Panel[], path: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  const figures = panels
    .map(
      (panel) =>
        `<figure><figcaption>${panel.caption}</figcaption><div class="shot">` +
        `<img src="data:image/png;base64,${panel.png.toString('base64')}">` +
        // Where the phone's window ends: what lies right of it is reached only by scrolling sideways.
        `<div class="edge"></div></div></figure>`,
    )
    .join('');
  await page.setContent(
    `<style>
      #sheet { display: inline-block; }
      body { margin: 0; background: #d9dde3; font: 600 15px system-ui, sans-serif; color: #1f2933; }
      main { display: inline-flex; gap: 24px; padding: 16px 24px 24px; align-items: flex-start; }
      figure { margin: 0; }
      figcaption { margin-bottom: 8px; white-space: nowrap; }
      img { display: block; box-shadow: 0 0 0 1px #8a94a3; }
      .shot { position: relative; }
      .edge { position: absolute; top: -6px; bottom: -6px; left: ${PHONE.width}px; border-left: 2px dashed #c81e1e; }
      p { margin: 0 24px 16px; font-weight: 400; }
    </style><div id="sheet"><main>${figures}</main>
    <p>Red dashes: the right edge of the ${PHONE.width} px window; what lies beyond it is reached only by scrolling sideways.</p></div>`,
  );
  await page.locator('#sheet').screenshot({ path, animations: 'disabled' });
  await context.close();
  console.log(`  ${path}`);
}

// --- run ---

async function main(): Promise<void> {
  const [treeArg, prefix] = process.argv.slice(2);
  if (!treeArg || (prefix !== 'before' && prefix !== 'after')) {
    console.error('usage: npx tsx scripts/control-room-shots.ts <built tree> <before|after>');
    process.exit(2);
  }
  const tree: Tree = prefix;
  mkdirSync(outDir, { recursive: true });
  const bridge = await startBridge(resolve(treeArg));
  let browser: Browser | undefined;
  let done = false;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    const page = await openDashboard(browser, bridge);
    await guestHold(page, bridge, tree);
    await composerMedia(page, bridge, tree);
    await failedPostEdit(page, bridge, tree);
    const width = await narrow(browser, bridge, tree);
    console.log(`  Posts at 390 px: the page is ${width} px wide`);
    // Last: the demo broadcast goes live a while after the start.
    await onAir(page, bridge, tree);
    done = true;
  } finally {
    await browser?.close();
    await bridge.stop(!done);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
