import { TrickleLoad, type TrickleKind } from '../support/trickle.js';

/**
 * The slow-bodies bench's attacker, in a process of its own (as it would be on another machine):
 * in the bench's process its connects and writes took the event loop from the bridge it
 * measures. Started with the bridge's URL and a plan (JSON: [{count, kind, from}]); says "ready"
 * once every connection has started, answers "count" with how many are open and how many it has
 * opened in all, ends on "stop".
 */
export interface TricklePlan {
  count: number;
  kind: TrickleKind;
  from: string;
  /** How long a closed connection waits before it is opened again. */
  pauseMs: number;
}

export type ChildMessage = { ready: true } | { open: number; started: number };

const [url, planJson] = process.argv.slice(2);
const load = new TrickleLoad(url!);
const plan = JSON.parse(planJson!) as TricklePlan[];
await Promise.all(plan.map(({ count, kind, from, pauseMs }) => load.hold(count, kind, from, pauseMs)));
process.send!({ ready: true } satisfies ChildMessage);
process.on('message', (message) => {
  if (message === 'count')
    process.send!({ open: load.countOpen(), started: load.started } satisfies ChildMessage);
  if (message === 'stop') {
    load.stop();
    process.disconnect();
  }
});
