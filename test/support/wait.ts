export type Truthy<T> = Exclude<T, null | undefined | false | 0 | ''>;

/**
 * Polls until `check` returns a truthy value (for effects that happen in a job queue, another
 * process or a peer), and returns it. A `check` that throws counts as "not yet"; its last error
 * is in the timeout message. The one wait-until of the tests: wait on a condition, never a fixed time.
 */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
