import { afterEach, describe, expect, it } from 'vitest';
import { stampedTranscriptOf, threeHourTranscript } from '../../bench/transcripts.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * Clip analysis is bounded (issue #12): one running and at most two waiting, then 503 with
 * Retry-After; an analysis past its time limit is stopped (503); the work stops when the client
 * goes away. No CRM is needed to analyse.
 */

let bridge: TestBridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

/** About 18 hours of talk (1.2 M characters): seconds of CPU on any machine, long enough to queue behind. */
const long = stampedTranscriptOf(1_200_000);
const analyze = (b: TestBridge, transcript = long) =>
  b.call('POST', '/clips/analyze', { body: { contentProductionId: 'c0000000000000001', transcript } });

describe('bounded clip analysis', () => {
  it('one running, two waiting: the fourth at once is 503 with Retry-After, the three others answer', async () => {
    // The queue's bound is under test, not the time limit: on a loaded host (tiers side by side) the
    // third analysis, waiting behind two, passed the default 20 s and was stopped (503).
    bridge = await startTestBridge({}, { tuning: { clips: { runner: { timeoutMs: 110_000 } } } });
    const answers = await Promise.all([analyze(bridge), analyze(bridge), analyze(bridge), analyze(bridge)]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 503]);
    const refused = answers.find((a) => a.status === 503)!;
    expect(refused.body).toMatchObject({ success: false, code: 'ANALYSIS_UNAVAILABLE' });
    expect(refused.body.error).toContain('busy');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);

  it('an analysis past the time limit is stopped: 503, and the next one runs', async () => {
    bridge = await startTestBridge({}, { tuning: { clips: { runner: { timeoutMs: 1_000 } } } });
    // 1.9 million characters (the most the route takes): far past the 1 s limit on any machine.
    const stopped = await analyze(bridge, stampedTranscriptOf(1_900_000));
    expect(stopped.status).toBe(503);
    expect(stopped.body).toMatchObject({ code: 'ANALYSIS_UNAVAILABLE' });
    expect(stopped.body.error).toMatch(/stopped after/);
    expect(Number(stopped.headers.get('retry-after'))).toBeGreaterThan(0);
    const short = threeHourTranscript('stamped').slice(0, 4_000);
    expect((await analyze(bridge, short.slice(0, short.lastIndexOf('\n')))).status).toBe(200);
  });

  it('a client that goes away stops its analysis: the queue frees up for the next ones', async () => {
    bridge = await startTestBridge();
    const gone = new AbortController();
    const abandoned = fetch(`${bridge.url}/clips/analyze`, {
      method: 'POST',
      signal: gone.signal,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bridge.apiKey}` },
      body: JSON.stringify({ contentProductionId: 'c0000000000000001', transcript: long }),
    }).catch((error: unknown) => error);
    // Two more wait behind it; the client of the first goes away.
    const waiting = [analyze(bridge), analyze(bridge)];
    await new Promise((resolve) => setImmediate(resolve));
    gone.abort();
    await abandoned;
    // Its place is free at once: a third request is accepted, not refused as busy.
    const answers = await Promise.all([...waiting, analyze(bridge)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  }, 120_000);
});
