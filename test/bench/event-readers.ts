import { TEST_API_KEY, type TestBridge } from '../support/bridge.js';
import { openRaw, requestHead, type RawConnection } from '../support/raw-http.js';
import { startBuiltBridge } from './built-bridge.js';
import { combineLoads, loadFigures, runLoad, type LoadResult } from './load.js';
import type { Bench } from './report.js';

/**
 * Issue #25.4: API throughput with 100 stalled /events readers against none, in one run. A
 * stalled reader opens the stream and stops reading its socket (a laptop asleep, a tab frozen);
 * the readers connect from 127.0.0.2–127.0.0.5 (loopback aliases, no setup on Linux), 25 each,
 * under the 32 per client address. The load is POST /api/recorder/filename, which records an
 * activity event (so every request is an event for every reader). Loads with and without the
 * readers take turns in slices (as webhook.ts does): the host's speed moves within seconds.
 */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const SLICES = Number(process.env.BENCH_SLICES ?? 4);
const SLICE = Math.ceil(REQUESTS / SLICES);
const CONCURRENCY = 20;
const STALLED = 100;
const ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];

async function stalledReaders(bridge: TestBridge): Promise<RawConnection[]> {
  const readers: RawConnection[] = [];
  for (let i = 0; i < STALLED; i++) {
    const reader = await openRaw(bridge.url, { localAddress: ADDRESSES[i % ADDRESSES.length]! });
    reader.socket.write(requestHead('GET', `/events?key=${TEST_API_KEY}`));
    const head = await reader.responseHead();
    if (head.status !== 200) throw new Error(`reader ${i}: /events answered ${head.status}`);
    reader.socket.pause(); // stops reading: what the bridge writes piles up in the kernel, then in the bridge
    readers.push(reader);
  }
  return readers;
}

function load(bridge: TestBridge, offset: number): Promise<LoadResult> {
  return runLoad({
    url: `${bridge.url}/api/recorder/filename`,
    headers: { authorization: `Bearer ${TEST_API_KEY}` },
    body: (i) => JSON.stringify({ filename: `take ${offset + i} of the evening show` }),
    requests: SLICE,
    concurrency: CONCURRENCY,
  });
}

export const eventReadersBench: Bench = {
  name: 'event-readers',
  async run() {
    const bridge = await startBuiltBridge({}, { areas: ['health', 'recorder'] });
    try {
      await load(bridge, -SLICE); // warm-up
      const none: LoadResult[] = [];
      const stalled: LoadResult[] = [];
      let dropped = 0;
      for (let slice = 0; slice < SLICES; slice++) {
        none.push(await load(bridge, slice * 2 * SLICE));
        const readers = await stalledReaders(bridge);
        stalled.push(await load(bridge, (slice * 2 + 1) * SLICE));
        dropped += readers.filter((reader) => reader.isClosed()).length;
        for (const reader of readers) reader.socket.destroy();
      }
      const withNone = combineLoads(none);
      const withStalled = combineLoads(stalled);
      return [
        { name: 'API, no /events reader', figures: loadFigures(withNone) },
        {
          name: `API, ${STALLED} stalled /events readers`,
          figures: {
            ...loadFigures(withStalled),
            'throughput ratio': Number((withStalled.perSecond / withNone.perSecond).toFixed(3)),
            'readers dropped': dropped,
          },
          note: `${SLICES} slices of ${SLICE} each, taking turns; ratio to no reader, same run`,
        },
      ];
    } finally {
      await bridge.close();
    }
  },
};
