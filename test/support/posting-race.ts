import { createPrng, type Prng } from '../../main/sandbox/common/prng.js';
import {
  toCrmDatetime,
  type CrmWebhookEvent,
  type SandboxCrm,
  type SandboxPostsvc,
} from '../../main/sandbox/index.js';
import { percentile } from '../bench/report.js';
import { callBridge, callSignedWebhook, webhookIdFor } from './bridge.js';

/**
 * The posting race (issue #36.5): rounds of racing reschedules, cancels, post-nows, CRM edits
 * and redeliveries on a few SocialPosts, each round's actions sent together, while the bridge's
 * catch-up runs. What it measures: how long each webhook answer took (the CRM's own deliveries
 * and the replayed ones), and what the provider holds at the end per record.
 */

export interface RaceOptions {
  bridgeUrl: string;
  crm: SandboxCrm;
  postsvc: SandboxPostsvc;
  /** The CRM's webhook ids are `webhookIdFor(webhookBase, event)`, signed with `secret`. */
  webhookBase: string;
  secret: string;
  records: number;
  rounds: number;
  /** Rounds stop here even if not all are done (the race test is bounded). */
  deadline: number;
  seed?: number;
}

export interface RaceResult {
  ids: string[];
  rounds: number;
  actions: Record<string, number>;
  /** Every webhook answer's time, ms: the CRM's deliveries during the race and the replays. */
  answerMs: number[];
  /** Route answers that were 5xx (a route may refuse with 4xx: a conflict with the record's state). */
  routeErrors: string[];
}

export interface ProviderTally {
  /** Records with more than one post scheduled or out at the provider. */
  twoLive: string[];
  /** Records published more than once. */
  publishedTwice: string[];
}

const platforms = ['Microblog', 'Socialnet', 'Professional'] as const;
const HOUR = 3_600_000;

type Action = 'move' | 'edit' | 'draft' | 'schedule' | 'cancel' | 'post-now' | 'replay' | 'route-move';
/** How often each action is drawn: post-now publishes at once, so it is rare. */
const weights: [Action, number][] = [
  ['move', 5],
  ['route-move', 4],
  ['edit', 3],
  ['draft', 2],
  ['schedule', 3],
  ['cancel', 2],
  ['post-now', 1],
  ['replay', 4],
];

function draw(prng: Prng): Action {
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  let at = prng.next() * total;
  for (const [action, weight] of weights) {
    at -= weight;
    if (at < 0) return action;
  }
  return 'replay';
}

/** A whole minute `hours` (and a few minutes) ahead, as the CRM stores it. */
function ahead(prng: Prng, hours: number): string {
  const at = new Date(Date.now() + hours * HOUR + prng.int(0, 50) * 60_000);
  at.setUTCSeconds(0, 0);
  return at.toISOString();
}

/** Creates the records, Scheduled a day or more ahead, each on its own hour so no spacing rule bites. */
export function createRaceRecords(crm: SandboxCrm, count: number, label: string): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      crm.create('SocialPost', {
        name: `${label} ${i}`,
        content: `${label} ${i}: first wording https://studio.example/race/${i}`,
        platform: platforms[i % platforms.length],
        status: 'Scheduled',
        scheduledAt: toCrmDatetime(new Date(ahead(createPrng(i + 1), 24 + 5 * i))),
      }).id,
  );
}

export async function runRace(options: RaceOptions, ids: readonly string[]): Promise<RaceResult> {
  const { crm, bridgeUrl } = options;
  const prng = createPrng(options.seed ?? 36);
  const deliveriesBefore = crm.deliveries().length;
  const replayMs: number[] = [];
  const routeErrors: string[] = [];
  const actions: Record<string, number> = {};
  const route = async (path: string, body: Record<string, unknown>) => {
    const answer = await callBridge(bridgeUrl, 'POST', path, { body });
    if (answer.status >= 500) routeErrors.push(`${path} ${answer.status}: ${JSON.stringify(answer.body)}`);
  };

  const act = async (action: Action, id: string, round: number): Promise<void> => {
    const record = crm.get('SocialPost', id);
    if (!record) return;
    const offset = 24 + prng.int(0, 40);
    switch (action) {
      case 'move':
        crm.update('SocialPost', id, { scheduledAt: toCrmDatetime(new Date(ahead(prng, offset))) });
        return;
      case 'edit':
        crm.update('SocialPost', id, {
          content: `${String(record.name)}: wording of round ${round} https://studio.example/r/${round}`,
        });
        return;
      case 'draft':
        crm.update('SocialPost', id, { status: 'Draft' });
        return;
      case 'schedule':
        crm.update('SocialPost', id, {
          status: 'Scheduled',
          scheduledAt: toCrmDatetime(new Date(ahead(prng, offset))),
        });
        return;
      case 'cancel':
        if (typeof record.postsvcId === 'string' && record.postsvcId)
          await route('/api/posts/cancel', { id: record.postsvcId });
        return;
      case 'post-now':
        await route('/api/posts/post-now', { socialPostId: id });
        return;
      case 'route-move':
        await route('/api/posts/reschedule', {
          socialPostId: id,
          post: String(record.content),
          scheduleDate: ahead(prng, offset),
        });
        return;
      case 'replay': {
        const earlier = crm
          .deliveries()
          .filter((d) => d.event.startsWith('social-') && d.body.includes(id) && d.status !== 0);
        if (earlier.length === 0) return;
        const delivery = prng.pick(earlier);
        const started = performance.now();
        await callSignedWebhook(bridgeUrl, delivery.event, delivery.body, {
          webhookId: webhookIdFor(options.webhookBase, delivery.event satisfies CrmWebhookEvent),
          secret: options.secret,
        });
        replayMs.push(performance.now() - started);
        return;
      }
    }
  };

  let round = 0;
  for (; round < options.rounds && Date.now() < options.deadline; round++) {
    // Three actions at once on records drawn with repeats: two may meet on one record.
    const drawn = [0, 1, 2].map(() => ({ action: draw(prng), id: prng.pick(ids) }));
    for (const { action } of drawn) actions[action] = (actions[action] ?? 0) + 1;
    await Promise.all(drawn.map(({ action, id }) => act(action, id, round)));
  }
  const answerMs = [
    ...crm
      .deliveries()
      .slice(deliveriesBefore)
      .map((d) => d.ms),
    ...replayMs,
  ];
  return { ids: [...ids], rounds: round, actions, answerMs, routeErrors };
}

/** What the provider holds per record (its posts carry the record's id as their idempotency key's prefix). */
export function providerTally(postsvc: SandboxPostsvc, ids: readonly string[]): ProviderTally {
  const posts = postsvc.posts();
  const of = (id: string) => posts.filter((post) => post.idempotencyKey?.startsWith(`${id}:`));
  return {
    twoLive: ids.filter(
      (id) => of(id).filter((p) => p.status === 'scheduled' || p.status === 'success').length > 1,
    ),
    publishedTwice: ids.filter((id) => of(id).filter((p) => p.publishedAt !== null).length > 1),
  };
}

export function answerFigures(ms: readonly number[]) {
  return {
    answers: ms.length,
    'p50 ms': Math.round(percentile(ms, 50)),
    'p95 ms': Math.round(percentile(ms, 95)),
    'max ms': Math.round(Math.max(...ms)),
  };
}
