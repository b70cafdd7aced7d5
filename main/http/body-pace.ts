/**
 * How fast a body read before it is verified must arrive (issue #35.4, DESIGN §4): EspoCRM gives
 * up after 10 s, so a real delivery is complete well within 8 s of its first byte; a client
 * trickling bytes to hold the bridge's places is cut once it falls behind, from the end of the
 * body's first second, 32 KiB for every second since.
 */
export interface BodyPace {
  minBytesPerSecond: number;
  /** The body's first moments, asked nothing (a slow start of a real sender). */
  graceMs: number;
  /** From the request's first byte (its headers included) to the body's last. */
  deadlineMs: number;
}

export type PaceVerdict = { ok: true; checkAgainInMs: number } | { ok: false; reason: string };

/** Pure: whether a body still incomplete keeps the pace, and when to look again if it does. */
export function checkPace(
  pace: BodyPace,
  progress: { sinceFirstByteMs: number; sinceBodyStartMs: number; received: number },
): PaceVerdict {
  const { sinceFirstByteMs, sinceBodyStartMs, received } = progress;
  if (sinceFirstByteMs >= pace.deadlineMs) {
    return {
      ok: false,
      reason: `body: not complete within ${pace.deadlineMs / 1000} s of the request's first byte (${received} bytes received)`,
    };
  }
  const owed = (pace.minBytesPerSecond * Math.max(0, sinceBodyStartMs - pace.graceMs)) / 1000;
  if (received < owed) {
    return {
      ok: false,
      reason: `body: ${received} bytes in ${(sinceBodyStartMs / 1000).toFixed(1)} s, slower than ${pace.minBytesPerSecond} bytes a second after the first second`,
    };
  }
  // What has come covers the pace until this moment of the body; looked at again just past it.
  const coveredUntilMs = pace.graceMs + (received * 1000) / pace.minBytesPerSecond;
  const untilBehind = Math.floor(coveredUntilMs - sinceBodyStartMs) + 1;
  return { ok: true, checkAgainInMs: Math.max(1, Math.min(untilBehind, pace.deadlineMs - sinceFirstByteMs)) };
}
