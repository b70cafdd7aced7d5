/**
 * Renders the module's 15-key preset page as Companion would show it, live against a sandbox
 * bridge, to integrations/companion/docs/page.png (the README's picture):
 * `npm run docs:companion-page`. The bridge is put in a telling state first (a name set and
 * recording, a broadcast on air, post now armed); each preset is drawn with its style, the
 * styles of its feedbacks that are on, and its variables replaced, as the test host reports them,
 * on a 72-px key with its top bar, the lines broken as Companion 4.3 breaks them (key-text.ts)
 * in Liberation Sans (Arial's metrics, as Companion's Arimo).
 */
import { execSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startTestBridge, TEST_API_KEY } from '../bridge.js';
import { eventually } from '../wait.js';
import { CONNECTION_LABEL, startCompanionHost } from './client.js';
import { KEY_TEXT_BOX, layoutKeyText } from './key-text.js';

interface Style {
  text?: string;
  size?: string | number;
  color?: number;
  bgcolor?: number;
}
interface PresetShape {
  name: string;
  style: Style;
  feedbacks: Array<{ feedbackId: string; options: Record<string, unknown>; style?: Style }>;
}

const out = path.resolve('integrations/companion/docs/page.png');
const bridge = await startTestBridge({ BRIDGE_SANDBOX: '1' });
const host = startCompanionHost();
try {
  await host.init(bridge.url, TEST_API_KEY);
  await host.until((h) => h.status()?.status === 'ok', 20_000);
  const call = (p: string, body: unknown) => bridge.call('POST', p, { body });
  await host.runAction('filename_from_next_production');
  await call('/api/sandbox/obs', { action: 'start' });
  const { body } = await call('/streamhost/create-broadcast', {
    name: 'Studio Hour live',
    scheduledAt: new Date(Date.now() + 60_000).toISOString(),
  });
  await call('/api/sandbox/encoder', { broadcastId: body.broadcastId });
  await host.until((h) => h.variables.on_air_name === 'Studio Hour live', 20_000);
  // The sandbox's own posts were scheduled at the provider outside the bridge: post now offers none of them.
  const text =
    'Studio Hour live now: the closet booth, the coats and the mic https://studiohour.example/live';
  await call('/postsvc/schedule', {
    post: text,
    platforms: ['microblog'],
    scheduleDate: new Date(Date.now() + 3 * 3_600_000).toISOString(),
  });
  await host.until((h) => h.variables.next_post_text === text);
  await host.runAction('post_now', { post: 'next' });

  const definitions = await host.definitions();
  const presets = definitions.presets.definitions as Record<string, PresetShape>;
  const keys: Style[] = [];
  for (const [id, preset] of Object.entries(presets)) {
    let style = { ...preset.style };
    for (const [index, feedback] of preset.feedbacks.entries()) {
      const on = await host.addFeedback(`${id}#${index}`, feedback.feedbackId, feedback.options);
      if (on === true) style = { ...style, ...feedback.style };
    }
    keys.push({ ...style, text: withVariables(style.text ?? '', host.variables) });
  }
  await eventually(() => keys.length === 15);

  const browser = await chromium.launch({
    executablePath: execSync('command -v chromium', { encoding: 'utf8' }).trim(),
  });
  const page = await browser.newPage({
    viewport: { width: 5 * 72 + 4 * 8 + 16, height: 3 * 72 + 2 * 8 + 16 },
    deviceScaleFactor: 3,
  });
  await page.setContent(html(keys));
  mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  await browser.close();
  process.stdout.write(`wrote ${out}\n`);
} finally {
  await host.close();
  await bridge.close();
}

function withVariables(text: string, values: Record<string, unknown>): string {
  return text.replace(/\$\(([^:)]+):([^)]+)\)/g, (whole, label: string, id: string) =>
    label === CONNECTION_LABEL ? String(values[id] ?? '') : whole,
  );
}

function html(keys: Style[]): string {
  const hex = (n: number | undefined, fallback: string) =>
    n === undefined ? fallback : `#${n.toString(16).padStart(6, '0')}`;
  const escape = (s: string) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
  const buttons = keys
    .map((key, index) => {
      const size = Number(key.size) || 14;
      const layout = layoutKeyText(key.text ?? '', size);
      const drawn = layout.lines.slice(0, Math.floor(KEY_TEXT_BOX.height / (size * 1.117)));
      const lines = drawn.map((line) => `<div>${escape(line.text) || '&nbsp;'}</div>`).join('');
      return `<div class="key"><div class="bar">1/${index + 1}</div><div class="body" style="background:${hex(key.bgcolor, '#000')};color:${hex(key.color, '#fff')};font-size:${size}px">${lines}</div></div>`;
    })
    .join('');
  return `<!doctype html><style>
    body{margin:0;background:#111;font-family:'Liberation Sans',Arimo,Arial,sans-serif}
    .grid{display:grid;grid-template-columns:repeat(5,72px);gap:8px;padding:8px}
    .key{width:72px;height:72px;background:#000;position:relative;overflow:hidden}
    .bar{height:13px;border-bottom:1px solid #ffc600;color:#ffc600;font-size:9px;padding-left:4px;line-height:13px}
    .body{position:absolute;left:0;top:14px;width:72px;height:58px;display:flex;flex-direction:column;
      justify-content:center;align-items:center;line-height:1.117;white-space:pre}
  </style><div class="grid">${buttons}</div>`;
}
