/**
 * Renders the module's 15-key preset page as Companion would show it, live against a sandbox
 * bridge, to integrations/companion/docs/page.png (the README's picture):
 * `npm run docs:companion-page`. The bridge is put in a telling state first (a name set and
 * recording, a broadcast on air, post now armed); each preset is drawn with its style, the
 * styles of its feedbacks that are on, and its variables replaced, as the test host reports them.
 */
import { execSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startTestBridge, TEST_API_KEY } from '../bridge.js';
import { eventually } from '../wait.js';
import { CONNECTION_LABEL, startCompanionHost } from './client.js';

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
    viewport: { width: 5 * 100 + 4 * 12 + 24, height: 3 * 100 + 2 * 12 + 24 },
    deviceScaleFactor: 2,
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
  const px = (size: Style['size']) =>
    ({ '7': 10, '14': 14, '18': 18, '24': 24, '30': 30 })[String(size)] ?? 13;
  const hex = (n: number | undefined, fallback: string) =>
    n === undefined ? fallback : `#${n.toString(16).padStart(6, '0')}`;
  const escape = (s: string) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
  const buttons = keys
    .map(
      (key) =>
        `<div class="key" style="background:${hex(key.bgcolor, '#000')};color:${hex(key.color, '#fff')};font-size:${px(key.size)}px">${escape(key.text ?? '').replaceAll('\\n', '<br>')}</div>`,
    )
    .join('');
  return `<!doctype html><style>
    body{margin:0;background:#111;font-family:Arial,Helvetica,sans-serif}
    .grid{display:grid;grid-template-columns:repeat(5,100px);gap:12px;padding:12px}
    .key{width:100px;height:100px;border-radius:8px;display:flex;align-items:center;justify-content:center;
      text-align:center;font-weight:bold;overflow:hidden;word-break:break-all;line-height:1.15;padding:4px;box-sizing:border-box}
  </style><div class="grid">${buttons}</div>`;
}
