import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRELOAD_MAX_AGE_MS, takePreloaded } from '../../../renderer/src/api/transport/preloaded.js';
import type { PreloadTable } from '../../../renderer/src/api/transport/preloaded.js';

/** The Overview's answers asked before the bundle ran (issue #13.4): who may take them, and when. */

function preload(table: PreloadTable): PreloadTable {
  vi.stubGlobal('window', { __studioBridgePreload: table });
  return table;
}

const answer = (body: string) => Promise.resolve(new Response(body));
const never = () => Promise.reject(new Error('asked the network'));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('answers preloaded for the first screen', () => {
  it('are taken once, for the same URL and key', async () => {
    preload({ '/health': { key: 'k', askedAt: performance.now(), response: answer('ok') } });
    expect(takePreloaded('/api/activity?limit=12', 'k', never)).toBeUndefined();
    const taken = takePreloaded('/health', 'k', never);
    expect(await (await taken!).text()).toBe('ok');
    expect(takePreloaded('/health', 'k', never)).toBeUndefined();
  });

  it('are never used for another key, nor once they are old', () => {
    const table = preload({
      '/health': { key: 'old-key', askedAt: performance.now(), response: answer('ok') },
      '/api/broadcasts': {
        key: 'k',
        askedAt: performance.now() - PRELOAD_MAX_AGE_MS - 1,
        response: answer('stale'),
      },
    });
    expect(takePreloaded('/health', 'new-key', never)).toBeUndefined();
    expect(takePreloaded('/api/broadcasts', 'k', never)).toBeUndefined();
    expect(table).toEqual({}); // dropped: the query asks the network, and so does the next one
  });

  it('that could not reach the bridge are asked again', async () => {
    preload({
      '/health': { key: 'k', askedAt: performance.now(), response: Promise.reject(new Error('down')) },
    });
    const retry = vi.fn(() => answer('second try'));
    const taken = await takePreloaded('/health', 'k', retry);
    expect(retry).toHaveBeenCalledOnce();
    expect(await taken!.text()).toBe('second try');
  });

  it('are absent where no page preloaded anything (the desktop dev server, a test)', () => {
    vi.stubGlobal('window', {});
    expect(takePreloaded('/health', 'k', never)).toBeUndefined();
  });
});
