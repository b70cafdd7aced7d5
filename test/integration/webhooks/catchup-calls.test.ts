import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toCrmDatetime } from '../../../main/sandbox/index.js';
import type { CatchUpStatus } from '../../../shared/api/health.js';
import { eventually, type TestBridge } from '../../support/bridge.js';
import { withPostingPeers } from '../../support/posting-bridge.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * Issue #22 closing note: how many calls one catch-up makes at the CRM for 1,000 records the
 * bridge already handled and that did not change since (100 of them scheduled posts it tracks).
 * The bridge talks to the sandbox CRM through a counting proxy; the figure is printed and bounded
 * (a count, not a time: stable under any load).
 */

const SECRET = 'catchup-calls-secret';
const RECORDS = 1_000;
const SCHEDULED = 100;
const { crm, postsvc, startBridge } = await withPostingPeers({ secret: SECRET });
let proxy: Server;
let proxyUrl = '';
const calls: string[] = [];
const data = tempDir('catchup-calls');
let bridge: TestBridge | null = null;

beforeAll(async () => {
  const target = new URL(crm.url);
  proxy = createServer((req, res) => {
    calls.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await bridge?.stop();
  await new Promise((resolve) => proxy.close(resolve));
  data.remove();
});

async function start(): Promise<{ bridge: TestBridge; report: CatchUpStatus }> {
  const startedAt = new Date().toISOString();
  bridge = await startBridge({ env: { CRM_URL: proxyUrl }, dataDir: data.path, webhooks: {} });
  const b = bridge;
  const report = await eventually(async () => {
    const last = (await b.call('GET', '/health')).body.lastCatchUp as CatchUpStatus | null;
    return last !== null && last.at >= startedAt && !last.running ? last : null;
  }, 240_000);
  return { bridge: b, report };
}

it('one catch-up over 1,000 unchanged, already handled records: the CRM calls it makes', async () => {
  const first = await start();
  for (let i = 0; i < RECORDS; i++) {
    crm.create('SocialPost', {
      name: `Known ${i}`,
      content: `Known post ${i} https://studiohour.example/${i}`,
      platform: 'Microblog',
      status: i < SCHEDULED ? 'Scheduled' : 'Draft',
      scheduledAt: toCrmDatetime(new Date(Date.now() + (24 * 60 + i * 7) * 60_000)),
    });
  }
  await webhooksQuiet(crm, 240_000);
  await jobsIdle(first.bridge.url, 'webhook.item', 240_000);
  await jobsIdle(first.bridge.url, 'posting.social-post', 240_000);
  expect(postsvc.posts()).toHaveLength(SCHEDULED);
  await first.bridge.stop();
  bridge = null;
  crm.clearWebhookTarget();

  // Nothing changes while the bridge is away; its catch-up lists the records it handled by webhook.
  calls.length = 0;
  const second = await start();
  await jobsIdle(second.bridge.url, 'catchup.record', 240_000);
  const counted = calls.length;
  const byKind = calls.reduce<Record<string, number>>((tally, call) => {
    const kind = call.replace(/\/[0-9a-z]{17}$/, '/{id}');
    tally[kind] = (tally[kind] ?? 0) + 1;
    return tally;
  }, {});
  console.info(`catch-up over ${RECORDS} unchanged records: ${counted} CRM calls`, byKind);
  expect(second.report.seen).toBe(RECORDS);
  expect(second.report.actedOn).toBe(0);
  expect(postsvc.posts()).toHaveLength(SCHEDULED);
  // Measured: 1,212 (108 listings, 1,100 reads by id, 4 identity checks). Each record's handling
  // reads it again before acting (DESIGN §6.1.3) although the listing just returned it: handing
  // the listed record to the handler would save ~1,000 of them. A budget, not a time.
  expect(counted).toBeLessThanOrEqual(1_300);
}, 400_000);
