import type { APIRequestContext } from '@playwright/test';
import { expect, RESET_RETRIES, type BridgeUnderTest } from './fixtures.js';

/** What the Posts specs that move and edit scheduled posts share: the times, and the provider's side. */

/** A local time `days` from today at hh:mm. */
export function localAt(days: number, hours: number, minutes: number): Date {
  const at = new Date();
  at.setDate(at.getDate() + days);
  at.setHours(hours, minutes, 0, 0);
  return at;
}

interface HistoryItem {
  id: string;
  post: string;
  status: string;
  platforms: string[];
  scheduleDate: string | null;
}

/** The provider's posts of this text, as its history lists them (through the bridge). */
export async function providerPosts(
  request: APIRequestContext,
  bridge: BridgeUnderTest,
  text: string,
): Promise<HistoryItem[]> {
  const history = await request.get('/postsvc/history?limit=500', {
    maxRetries: RESET_RETRIES,
    headers: { Authorization: `Bearer ${bridge.key}` },
  });
  expect(history.ok()).toBe(true);
  return ((await history.json()) as { data: HistoryItem[] }).data.filter((item) => item.post === text);
}

/** A post of this text scheduled on Socialnet at `at` (through the bridge); its id at the provider. */
export async function schedulePost(
  request: APIRequestContext,
  bridge: BridgeUnderTest,
  text: string,
  at: Date,
): Promise<string> {
  const answer = await request.post('/postsvc/schedule', {
    maxRetries: RESET_RETRIES,
    headers: { Authorization: `Bearer ${bridge.key}` },
    data: { post: text, platforms: ['socialnet'], scheduleDate: at.toISOString() },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { id: string }).id;
}
