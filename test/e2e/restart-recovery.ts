import { expect, type Page } from '@playwright/test';
import type { RunningBridge } from './bridge-process.js';

/**
 * Issue #14.5, "after a restart every panel recovers without a click": one procedure for the
 * e2e test (shell.spec.ts, which asserts the 5 s target) and the dashboard bench (which reports
 * the time), so both measure the same thing.
 */

export const sandboxPeers = ['crm', 'postsvc', 'gateway', 'automation'] as const;

/** A generous wait per check: the caller judges the time, a slow recovery is a figure, not a throw. */
const WAIT_MS = 60_000;

/**
 * Waits until every Overview panel shows live data from a reachable bridge: each peer reachable,
 * the event stream live, the bridge panel's status, the recorder panel showing `recorder`, and
 * no "lost contact" banner.
 */
export async function expectOverviewLive(page: Page, recorder: string | RegExp): Promise<void> {
  const timeout = WAIT_MS;
  for (const peer of sandboxPeers) {
    await expect(page.getByTestId(`peer-${peer}`)).toContainText('Reachable', { timeout });
  }
  await expect(page.getByTestId('live-status').first()).toHaveText(/Live/, { timeout });
  await expect(page.getByTestId('bridge-panel')).toContainText(/OK|Degraded/, { timeout });
  await expect(page.getByTestId('recorder-current')).toContainText(recorder, { timeout });
  await expect(page.getByRole('alert')).toHaveCount(0, { timeout });
}

/**
 * With the Overview open on `bridge` and live: sets a recorder filename (it lives in the bridge's
 * memory, so a panel that says the bridge "restarted at" afterwards has really asked the new process),
 * stops the bridge, waits until every peer says "Unknown", calls `whileDown`, starts the bridge
 * again on the same port and data dir, and returns the milliseconds from its first /health 200
 * (as bridge-process.ts's start-up poll sees it, every 200 ms) until every panel is live again.
 */
export async function timeRestartRecovery(
  page: Page,
  bridge: Pick<RunningBridge, 'stopProcess' | 'startAgain'>,
  whileDown?: () => Promise<void>,
): Promise<number> {
  await page.getByLabel('New filename').fill('before_the_restart');
  await page.getByRole('button', { name: 'Set filename' }).click();
  await expect(page.getByTestId('recorder-current')).toHaveText('before_the_restart');

  await bridge.stopProcess();
  for (const peer of sandboxPeers) {
    await expect(page.getByTestId(`peer-${peer}`)).toContainText('Unknown', { timeout: 5_000 });
    await expect(page.getByTestId(`peer-${peer}`)).not.toContainText('Reachable');
  }
  await whileDown?.();

  await bridge.startAgain();
  const upAt = Date.now();
  await expectOverviewLive(page, /restarted at/);
  return Date.now() - upAt;
}
