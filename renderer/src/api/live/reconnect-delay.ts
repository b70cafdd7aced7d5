const BASE_DELAY_MS = 1_000;
/**
 * A restarted bridge must be seen within 5 s (issue #14.5): with ±20 % jitter the longest wait
 * is 4.8 s. One EventSource attempt every few seconds costs a loopback or LAN bridge nothing.
 */
const MAX_DELAY_MS = 4_000;

/** The wait before reconnect attempt `failures` (1 = the first after a drop): 1 s doubling, capped, jittered ±20 %. */
export function reconnectDelay(failures: number, random: number = Math.random()): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (failures - 1)) * (0.8 + random * 0.4);
}
