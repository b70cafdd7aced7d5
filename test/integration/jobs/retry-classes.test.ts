import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxGateway,
  type SandboxCrm,
  type SandboxGateway,
} from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * DESIGN §6.2 retry classes for the peer calls a job makes: a transient failure (408, 429,
 * 502–504, network) is tried again with backoff; any other 4xx is permanent: the job ends at
 * once, the peer's reason in the job list and in activity. (Before, a CRM 400 on a broadcast
 * record was tried eight times.)
 */

let crm: SandboxCrm;
let gateway: SandboxGateway;
let bridge: TestBridge;

beforeAll(async () => {
  crm = await startSandboxCrm();
  gateway = await startSandboxGateway();
  bridge = await startTestBridge(
    { CRM_URL: crm.url, CRM_API_KEY: crm.apiKey, GATEWAY_URL: gateway.url, GATEWAY_API_KEY: gateway.apiKey },
    { areas: ['health', 'broadcasts'] },
  );
});
afterAll(async () => {
  await bridge?.close();
  await gateway?.stop();
  await crm?.stop();
});

let hour = 0;
const createBroadcast = (name: string) =>
  bridge.call('POST', '/streamhost/create-broadcast', {
    body: { name, scheduledAt: new Date(Date.now() + (48 + ++hour) * 3_600_000).toISOString() },
  });
const recordJobs = async () =>
  (await bridge.call('GET', '/api/jobs?kind=broadcasts.record')).body.data as Array<{
    id: number;
    status: string;
    attempts: number;
    lastError: string | null;
  }>;
const refuseRecords = (status: number, reason: string, times: number) =>
  crm.faults.injectFault({
    method: 'POST',
    pathPrefix: '/api/v1/StreamhostBroadcast',
    status,
    headers: { 'X-Status-Reason': reason },
    times,
  });

describe('retry classes of a job', () => {
  it('a CRM 400 is permanent: the record job fails at its first attempt with the reason', async () => {
    // The request's own create and the job's first attempt are both refused.
    refuseRecords(400, 'validationFailure: channelId', 2);
    const created = await createBroadcast('Refused by the CRM');
    expect(created.status).toBe(200);
    expect(created.body.warnings?.[0]).toContain('could not be written');
    const [job] = await eventually(async () => {
      const jobs = await recordJobs();
      return jobs.length > 0 && jobs.every((j) => j.status === 'failed') && jobs;
    });
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job!.lastError).toContain('400');
    const failed = await bridge.call('GET', '/api/activity?type=job.failed&limit=5');
    expect(failed.body.data[0].message).toMatch(/^CRM record of broadcast “.+”: .*400/);
  });

  it('a CRM 503 is transient: the job is tried again with backoff and writes the record', async () => {
    // Three tries inside the request (the CRM client repeats a 503), three in the job's first attempt.
    refuseRecords(503, 'maintenance', 6);
    const created = await createBroadcast('CRM briefly down');
    expect(created.status).toBe(200);
    await eventually(
      () => crm.list('StreamhostBroadcast').some((record) => record.name === 'CRM briefly down'),
      15_000,
    );
    const [newest] = await eventually(async () => {
      const jobs = await recordJobs();
      return jobs[0]?.status === 'done' && jobs;
    });
    expect(newest).toMatchObject({ status: 'done', attempts: 2 });
  });
});
