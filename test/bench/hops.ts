import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { signEspoBody } from '../../main/http/espo-signature.js';
import {
  phpJsonEncode,
  startSandboxCrm,
  startSandboxPostsvc,
  toCrmDatetime,
} from '../../main/sandbox/index.js';
import { callBridge, startTestBridge } from '../support/bridge.js';
import { crmAndPostsvcEnv } from '../support/peers-env.js';
import type { Bench, BenchResult } from './report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = 5;

interface ScriptCoverage {
  url: string;
  functions: { ranges: { count: number }[] }[];
}

/** The bridge's own source files (main/ but its simulators, shared/) that ran a function since the last take, and how many calls. */
function filesEntered(coverage: readonly ScriptCoverage[]): { files: string[]; calls: number } {
  const entered = coverage
    .filter((script) => script.url.startsWith('file://'))
    .map((script) => ({ file: path.relative(root, fileURLToPath(script.url)), script }))
    .filter(({ file }) => /^(main|shared)\//.test(file) && !file.startsWith('main/sandbox/'))
    .map(({ file, script }) => ({
      file,
      calls: script.functions.reduce((sum, fn) => sum + (fn.ranges[0]?.count ?? 0), 0),
    }))
    .filter(({ calls }) => calls > 0);
  return {
    files: entered.map(({ file }) => file).sort(),
    calls: entered.reduce((sum, { calls }) => sum + calls, 0),
  };
}

/**
 * How many of the bridge's files one social-created delivery enters (issue #36: "hops"), from
 * V8's precise coverage in this process: a warm-up delivery loads everything, the counters are
 * reset, then one signed delivery of a new Scheduled SocialPost is answered (its post created at
 * the provider, postsvcId written back) and the files whose functions ran are counted. The CRM
 * sends no echo (no webhook target): one delivery is measured. The fewest over RUNS is reported,
 * since a periodic task (peer probe, confirmation poll) may fall into a run.
 */
export const hopsBench: Bench = {
  name: 'hops',
  async run(): Promise<BenchResult[]> {
    const secret = 'bench-hops-secret';
    const crm = await startSandboxCrm({ warn: () => undefined });
    const postsvc = await startSandboxPostsvc({ plan: 'business', rateLimitPerMinute: 1_000_000 });
    const bridge = await startTestBridge(crmAndPostsvcEnv(crm, postsvc, { secret }), {
      areas: ['health', 'webhooks', 'posting'],
    });
    const session = new Session();
    session.connect();
    try {
      await session.post('Profiler.enable');
      await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
      const deliver = async (i: number) => {
        const record = crm.create('SocialPost', {
          name: `Hops ${i}`,
          content: `Hops ${i}: the new episode https://studio.example/hops/${i}`,
          platform: 'Microblog',
          status: 'Scheduled',
          scheduledAt: toCrmDatetime(new Date(Date.now() + (48 + 3 * i) * 3_600_000)),
        });
        const body = phpJsonEncode([record]);
        const answer = await callBridge(bridge.url, 'POST', '/webhooks/social-created', {
          key: null,
          rawBody: body,
          headers: { signature: signEspoBody(body, secret, 'wh-hops') },
        });
        if (answer.status !== 200 || !crm.get('SocialPost', record.id)?.postsvcId)
          throw new Error(`delivery ${i} not done at once: ${answer.status} ${JSON.stringify(answer.body)}`);
      };
      await deliver(0);
      let fewest: ReturnType<typeof filesEntered> | null = null;
      for (let i = 1; i <= RUNS; i++) {
        await session.post('Profiler.takePreciseCoverage');
        await deliver(i);
        const { result } = (await session.post('Profiler.takePreciseCoverage')) as unknown as {
          result: ScriptCoverage[];
        };
        const entered = filesEntered(result);
        if (fewest === null || entered.files.length < fewest.files.length) fewest = entered;
      }
      if (process.env.BENCH_HOPS_LIST) process.stdout.write(`${fewest!.files.join('\n')}\n`);
      return [
        {
          name: 'one social-created delivery: files entered',
          figures: { files: fewest!.files.length, 'function calls': fewest!.calls },
          note: 'main/ (simulators excluded) and shared/; BENCH_HOPS_LIST=1 lists them',
        },
      ];
    } finally {
      await session.post('Profiler.stopPreciseCoverage').catch(() => undefined);
      session.disconnect();
      await bridge.close();
      await crm.stop();
      await postsvc.stop();
    }
  },
};
