import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxPostsvc,
  type SandboxCrm,
  type SandboxPostsvc,
} from '../../../main/sandbox/index.js';
import type { SearchResponse } from '../../../shared/api/search.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * GET /api/search finds posts by their text in the bridge's own ledger too (issue #42.3): a post
 * scheduled over the API has no CRM record, and with the CRM down the ledger still answers.
 */
let crm: SandboxCrm;
let postsvc: SandboxPostsvc;
let bridge: TestBridge;

beforeAll(async () => {
  crm = await startSandboxCrm();
  postsvc = await startSandboxPostsvc({ plan: 'business' });
  bridge = await startTestBridge(
    {
      CRM_URL: crm.url,
      CRM_API_KEY: crm.apiKey,
      POSTSVC_URL: postsvc.url,
      POSTSVC_API_KEY: postsvc.apiKey,
      POSTSVC_PLAN: 'business',
    },
    { areas: ['posting', 'search'] },
  );
  const scheduled = await bridge.call('POST', '/postsvc/schedule', {
    body: {
      post: 'Behind the scenes with Nadia Haddad at the mixing desk',
      platforms: ['socialnet'],
      scheduleDate: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    },
  });
  expect(scheduled.status).toBe(200);
});
afterAll(async () => {
  await bridge?.close();
  await postsvc?.stop();
  await crm?.stop();
});

const posts = async (q: string) => {
  const answer = await bridge.call('GET', `/api/search?q=${encodeURIComponent(q)}`);
  expect(answer.status).toBe(200);
  const body = answer.body as SearchResponse;
  return { body, posts: body.results.filter((result) => result.kind === 'post') };
};

describe('posts from the ledger', () => {
  it('finds a post scheduled over the API by its text', async () => {
    const { posts: found } = await posts('MIXING desk');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      title: 'Behind the scenes with Nadia Haddad at the mixing desk',
      productionId: null,
    });
    expect(found[0]!.id).toMatch(/^ledger-\d+$/);
    expect(found[0]!.context).toContain('socialnet');
    expect(found[0]!.href).toMatch(/^#\/posts/);
  });

  it('still finds it with the CRM down, saying what was not searched', async () => {
    await crm.faults.refuseConnections(true);
    try {
      const { body, posts: found } = await posts('mixing desk');
      expect(found).toHaveLength(1);
      expect(body.missing).toHaveLength(1);
      expect(body.missing[0]!.reason).toMatch(/^The CRM could not be reached/);
    } finally {
      await crm.faults.refuseConnections(false);
    }
  });
});
