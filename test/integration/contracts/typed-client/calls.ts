/**
 * An integrator's code against the bridge, typed only by what openapi-typescript generates from the
 * served /openapi.json (./generated/bridge-api.d.ts, written by typed-client.test.ts, not committed)
 * and called through openapi-fetch. The test type-checks this file with the generated types (so a
 * contract that stops matching this use fails to compile) and then runs it against a real bridge.
 *
 * Not in tsconfig.json's program: the generated file exists only once the test ran.
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/bridge-api.js';

export async function integratorCalls(baseUrl: string, key: string) {
  const bridge = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });

  const scheduled = await bridge.POST('/postsvc/schedule', {
    body: {
      post: 'New episode out Friday',
      platforms: ['microblog', 'professional'],
      scheduleDate: new Date(Date.now() + 3 * 24 * 3600_000).toISOString(),
      idempotencyKey: `typed-client-${Date.now()}`,
    },
  });
  // The success body is typed: `id` a string, `status` one of two values.
  const post: { id: string; status: 'scheduled' | 'published' } | undefined = scheduled.data;

  const filename = await bridge.POST('/api/recorder/filename', { body: { filename: 'episode-42_take-1' } });
  const recorded: string | undefined = filename.data?.filename;

  const pipeline = await bridge.GET('/guests/pipeline', {
    params: { query: { startDate: '2026-01-01', endDate: '2026-12-31' } },
  });
  const counts: Record<string, number> | undefined = pipeline.data?.counts;
  const total: number | undefined = pipeline.data?.total;

  // A 400 is read as the typed error envelope, not thrown.
  const refused = await bridge.POST('/postsvc/schedule', { body: { post: '', platforms: [] } });
  const error: { success: false; error: string; code?: string } | undefined = refused.error;

  return {
    post,
    scheduledStatus: scheduled.response.status,
    recorded,
    counts,
    total,
    refusedStatus: refused.response.status,
    error,
  };
}
