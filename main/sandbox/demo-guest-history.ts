import { guestStages } from '../../shared/api/guests.js';
import type { AreaContext } from '../areas/area.js';
import { addStageHistories, type StageHistoryEntry } from '../areas/guests/module.js';
import type { CrmClient } from '../peers/crm.js';

export interface DemoGuest {
  id: string;
  name: string;
  stage: string;
  scheduledDate: string | null;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** FNV-1a: the same name gives the same history. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

/**
 * A plausible stage history for the sandbox's demo guests (their CRM records only hold the
 * current stage), so the pipeline ratios and timelines mean something on first start.
 * Deterministic for the same guests and `now`: the gaps come from a hash of the name and are
 * anchored on the recording date (outreach about a month before, publishing 3–6 days after).
 */
export function demoStageHistory(guests: readonly DemoGuest[], now: Date): StageHistoryEntry[] {
  const entries: StageHistoryEntry[] = [];
  const nowMs = now.getTime();
  for (const guest of guests) {
    const reached = guestStages.findIndex((stage) => stage === guest.stage);
    if (reached < 0) continue;
    const h = hash(guest.name);
    const bits = (shift: number, modulo: number) => (h >>> shift) % modulo;
    const recording = guest.scheduledDate ? Date.parse(guest.scheduledDate) : Number.NaN;
    const times: number[] = [];
    if (!Number.isNaN(recording)) {
      times[0] = recording - (28 + bits(0, 10)) * DAY + bits(4, 6) * HOUR;
      times[1] = times[0] + (2 + bits(8, 4)) * DAY + bits(12, 5) * HOUR;
      times[2] = times[1] + (1 + bits(16, 3)) * DAY + bits(20, 4) * HOUR;
      times[3] = times[2] + (1 + bits(24, 2)) * DAY;
      times[4] = recording + HOUR;
      times[5] = recording + (3 + bits(26, 4)) * DAY + bits(28, 4) * HOUR;
    } else {
      times[0] = nowMs - (6 + bits(0, 15)) * DAY;
      times[1] = times[0] + (2 + bits(8, 4)) * DAY;
      times[2] = times[1] + (1 + bits(16, 3)) * DAY;
      times[3] = times[2] + DAY;
      times[4] = times[3] + DAY;
      times[5] = times[4] + 4 * DAY;
    }
    // In the past and in order: the last stage at least an hour ago, each an hour before the next.
    times[reached] = Math.min(times[reached] as number, nowMs - HOUR);
    for (let i = reached - 1; i >= 0; i--)
      times[i] = Math.min(times[i] as number, (times[i + 1] as number) - HOUR);
    for (let i = 0; i <= reached; i++) {
      entries.push({
        guestId: guest.id,
        stage: guestStages[i] as string,
        previous: i === 0 ? null : (guestStages[i - 1] as string),
        enteredAt: new Date(times[i] as number).toISOString(),
      });
    }
  }
  return entries;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * Demo guests without any stage history get a plausible one, so the pipeline ratios and timelines
 * mean something from the first start. Per guest, because the sandbox CRM draws new ids at every
 * start while the bridge's data directory persists.
 */
export async function seedDemoGuestHistory(ctx: AreaContext, crm: CrmClient): Promise<void> {
  const guests = await crm.listAll('GuestBooking');
  const seeded = addStageHistories(
    ctx,
    guests,
    (fresh) =>
      demoStageHistory(
        fresh.map((guest) => ({
          id: guest.id,
          name: text(guest.name) ?? guest.id,
          stage: text(guest.stage) ?? '',
          scheduledDate: text(guest.scheduledDate),
        })),
        ctx.now(),
      ),
    'demo',
  );
  if (seeded.entries > 0) {
    ctx.activity.record(
      'guests.demo',
      'info',
      `sandbox: stage history of ${seeded.guests} demo guests seeded (${seeded.entries} stage changes)`,
      seeded,
    );
  }
}
