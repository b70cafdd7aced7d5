import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type {
  ItemOutcome,
  WebhookEvent,
  WebhookItem,
  WebhookResponse,
} from '../../../shared/api/webhooks.js';
import { webhookEntity } from '../../../shared/api/webhooks.js';
import { recordFromCrm } from '../../peers/crm-datetime.js';
import type { JobContext, JobQueue } from '../../kernel/jobs/queue.js';
import type { JobRow } from '../../kernel/jobs/repo.js';
import { retryClassOf } from '../../kernel/jobs/retry-class.js';
import { crmRecordLane } from '../../kernel/jobs/lane.js';
import type { WebhooksRepo } from './repo.js';
import type { GroupCommit } from '../../kernel/commit-group.js';
import type { WebhookItemHandler } from '../area.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { itemHash } from './idempotency.js';
import { redactSecrets } from './redact.js';
import { postSubject, recordSubject } from '../../kernel/activity/subjects.js';
import type { JobSubject } from '../../kernel/jobs/queue.js';

/** The record a webhook item's job concerns, named from the item itself (a sparse item: a plain noun). */
function itemSubject(event: WebhookEvent, item: WebhookItem): JobSubject | undefined {
  const name = item.name ?? item.title;
  if (event.startsWith('social-'))
    return {
      subject: postSubject({ socialPostId: item.id }, { name, text: item.content }),
      noun: 'CRM post',
    };
  if (event.startsWith('guest-')) return { subject: recordSubject('guest', item.id, name) };
  if (event.startsWith('content-')) return { subject: recordSubject('episode', item.id, name) };
  if (event.startsWith('platform-')) return { subject: recordSubject('publish', item.id, name) };
  if (event.startsWith('clip-')) return { subject: recordSubject('clip', item.id, name) };
  return undefined;
}
import type { RecordMarks } from './record-marks.js';

export interface WebhookResult {
  status: number;
  body: WebhookResponse;
}

interface ItemJobPayload {
  key: string;
  event: WebhookEvent;
  deliveryId: number;
  item: WebhookItem;
}

export const WEBHOOK_ITEM_JOB = 'webhook.item';
/** A delivery body is kept this long (the delivery log's retention); a replay within it is not stored again. */
export const PAYLOAD_RETENTION_MS = 14 * 24 * 3600 * 1000;
/**
 * The budget (DESIGN §6.1.4) is for the whole request: the waiting stops this much earlier (a tenth,
 * at most 500 ms), so the answer (outcomes read, the delivery closed, the body sent) is out within it.
 */
const answerMarginMs = (budgetMs: number) => Math.min(500, budgetMs / 10);
/** A test webhook with a delay: it sleeps, so these hold one job slot at most. */
export const WEBHOOK_TEST_JOB = 'webhook.test';
/** A test webhook without a delay: done at once, so it needs no cap. */
export const WEBHOOK_TEST_NOW_JOB = 'webhook.test.now';

/**
 * Webhook processing of DESIGN §6.1: log the delivery, key every item, run each item once
 * through the durable queue (one lane per CRM record, so a record's events stay in order),
 * wait up to the budget, answer with what finished and leave the rest to the queue (202).
 */
export class WebhookIntake {
  private readonly handlers = new Map<WebhookEvent, WebhookItemHandler>();

  constructor(
    private readonly deps: {
      repo: WebhooksRepo;
      marks: RecordMarks;
      groupCommit: GroupCommit;
      logger: Logger;
      jobs: JobQueue;
      activity: ActivityLog;
      now: () => Date;
      /** CRM senders give up after 10 s; DESIGN §6.1 answers within 8. */
      budgetMs: number;
    },
  ) {
    deps.jobs.register<ItemJobPayload>(
      WEBHOOK_ITEM_JOB,
      (payload, context) => this.runItem(payload, context),
      {
        logDone: false,
        describe: (payload) => `${payload.event} ${payload.item.id}`,
        subject: (payload) => itemSubject(payload.event, payload.item),
        // The item's outcome lands in the same commit as its job's done state.
        onDone: (payload, outcome) =>
          deps.repo.finishEvent(payload.key, outcome as ItemOutcome, deps.now().toISOString()),
      },
    );
    const runTest = async (
      { deliveryId, delayMs }: { deliveryId: number; delayMs: number },
      { signal }: JobContext,
    ) => {
      if (delayMs > 0) await sleep(delayMs, undefined, { signal });
      return this.testProcessed(deliveryId);
    };
    const describeTest = ({ deliveryId }: { deliveryId: number }) => `test webhook ${deliveryId}`;
    // A sleeping test job holds its slot for nothing: one slot at most, however many are sent, so CRM
    // items never queue behind them (issue #12.8). One without a delay is over at once.
    deps.jobs.register(WEBHOOK_TEST_JOB, runTest, { logDone: false, describe: describeTest, maxRunning: 1 });
    deps.jobs.register(WEBHOOK_TEST_NOW_JOB, runTest, {
      logDone: false,
      describe: describeTest,
      holdsSlot: false,
    });
  }

  setHandler(event: WebhookEvent, handler: WebhookItemHandler): void {
    this.handlers.set(event, handler);
  }

  hasHandler(event: WebhookEvent): boolean {
    return this.handlers.has(event);
  }

  async receive(
    event: WebhookEvent,
    body: WebhookItem | WebhookItem[],
    meta: { rawPayload: string; payloadHash?: string; signedBy: string | null; secretsPossible?: boolean },
  ): Promise<WebhookResult> {
    const started = Date.now();
    const single = !Array.isArray(body);
    const items = single ? [body] : body;
    const { repo, jobs, activity } = this.deps;
    const now = this.deps.now().toISOString();
    const entity = webhookEntity[event];

    // One savepoint of a group commit: the delivery, its items, the records' marks and the jobs exist
    // together or not at all, and are on disk before the answer.
    const tracked = await this.deps.groupCommit(() => {
      const deliveryId = repo.recordDelivery(
        {
          event,
          itemCount: items.length,
          signedBy: meta.signedBy,
          payload: meta.rawPayload,
          payloadHash: meta.payloadHash,
          storedSince: new Date(this.deps.now().getTime() - PAYLOAD_RETENTION_MS).toISOString(),
        },
        now,
      );
      const entries = items.map((item, index) =>
        this.logItem(entity, event, deliveryId, index, item, now, meta.secretsPossible ?? true),
      );
      // Every item decided here (new Drafts): the answer is known, and closes the delivery in this commit.
      const decided = entries.every((entry) => entry.decided !== undefined)
        ? respond(
            single,
            entries.map((entry) => entry.decided!),
          )
        : null;
      if (decided) repo.finishDelivery(deliveryId, decided.status, now);
      return { deliveryId, entries, decided };
    });

    tracked.entries.forEach((entry, index) => {
      if (entry.decided) this.reportFailure(event, items[index]!.id, tracked.deliveryId, entry.decided);
    });
    const duplicates = tracked.entries.filter((e) => e.redelivery).length;
    activity.record(
      'webhook.received',
      'info',
      `${event}: ${items.length} item${items.length === 1 ? '' : 's'}${duplicates ? ` (${duplicates} already seen)` : ''}`,
      { deliveryId: tracked.deliveryId, event, ids: items.map((i) => i.id).slice(0, 50) },
    );

    if (tracked.decided) return tracked.decided;

    const remaining = () =>
      Math.max(0, this.deps.budgetMs - answerMarginMs(this.deps.budgetMs) - (Date.now() - started));
    const outcomes: (ItemOutcome | null)[] = [];
    for (const entry of tracked.entries) {
      if (entry.decided) {
        outcomes.push(entry.decided);
        continue;
      }
      // Out of time: the rest are read as they stand, without a wait (and a timer turn) each.
      let finished: JobRow | undefined;
      if (entry.jobId !== null && remaining() > 0)
        finished = await jobs.waitFor(entry.jobId, remaining(), !entry.redelivery);
      // A job done is its item's outcome (stored in the same commit); anything else is read.
      outcomes.push(
        !entry.redelivery && finished?.status === 'done' && finished.result !== null
          ? (JSON.parse(finished.result) as ItemOutcome)
          : this.outcomeOf(entry.answeredBy),
      );
    }

    const result = respond(
      single,
      outcomes,
      tracked.entries.map((entry) => entry.redelivery),
    );
    this.closeDelivery(tracked.deliveryId, result.status);
    return result;
  }

  /** Runs the test-webhook job within the budget (POST /webhooks/test). */
  async receiveTest(
    payload: Record<string, unknown>,
    delayMs: number,
    meta: { rawPayload: string; signedBy: string | null },
  ) {
    const started = Date.now();
    const { repo, jobs, activity } = this.deps;
    const now = this.deps.now().toISOString();
    const { deliveryId, job, done } = await this.deps.groupCommit(() => {
      const id = repo.recordDelivery(
        { event: 'test', itemCount: 1, signedBy: meta.signedBy, payload: meta.rawPayload },
        now,
      );
      const jobPayload = { deliveryId: id, delayMs };
      // Without a delay the test job waits on nothing: done in this commit, the delivery closed with it.
      const atOnce =
        delayMs > 0
          ? undefined
          : jobs.doneAtOnce({ kind: WEBHOOK_TEST_NOW_JOB, payload: jobPayload }, () => ({ deliveryId: id }));
      if (atOnce) repo.finishDelivery(id, 200, now);
      return {
        deliveryId: id,
        job:
          atOnce?.job ??
          jobs.enqueue({ kind: delayMs > 0 ? WEBHOOK_TEST_JOB : WEBHOOK_TEST_NOW_JOB, payload: jobPayload }),
        done: atOnce !== undefined,
      };
    });
    activity.record('webhook.received', 'info', `test webhook received`, { deliveryId, event: 'test' });
    if (done) {
      this.testProcessed(deliveryId);
      return { status: 200, deliveryId, queued: false, echo: payload };
    }
    const finished = await jobs.waitFor(
      job.id,
      Math.max(0, this.deps.budgetMs - answerMarginMs(this.deps.budgetMs) - (Date.now() - started)),
      true, // enqueued by the commit that just returned
    );
    const status = finished ? 200 : 202;
    this.closeDelivery(deliveryId, status);
    return { status, deliveryId, queued: !finished, echo: payload };
  }

  private testProcessed(deliveryId: number) {
    this.deps.activity.record('webhook.test', 'info', `test webhook ${deliveryId} processed`, { deliveryId });
    return { deliveryId };
  }

  /**
   * The delivery's answer, written behind it with the next group commit: the log line of what was
   * answered is no reason to hold the answer back (its items and jobs were committed before).
   */
  private closeDelivery(deliveryId: number, status: number): void {
    const finishedAt = this.deps.now().toISOString();
    this.deps
      .groupCommit(() => this.deps.repo.finishDelivery(deliveryId, status, finishedAt), {
        oneStatement: true,
      })
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error, deliveryId }, 'delivery status not stored'),
      );
  }

  /**
   * DESIGN §6.1.2: an item identical to an earlier one (same record, event and bytes) is a
   * redelivery only while the record's mark is still the one that earlier item set: no other
   * item for the record and no write-back by the bridge came in between. A redelivery runs
   * nothing and is answered with the earlier item's outcome; every other item raises the mark
   * and gets its own job (keyed by delivery and position, not by content). An item decided from
   * itself alone (a new Draft) has its job done here, in the delivery's commit, when its record
   * has no job waiting; the others run in the queue.
   */
  private logItem(
    entity: string,
    event: WebhookEvent,
    deliveryId: number,
    index: number,
    item: WebhookItem,
    now: string,
    secretsPossible: boolean,
  ): { answeredBy: string; jobId: number | null; redelivery: boolean; decided?: ItemOutcome } {
    const { repo, marks, jobs } = this.deps;
    const key = `${deliveryId}:${index}`;
    const hash = itemHash(item);
    const base = { key, event, entity, entityId: item.id, itemHash: hash, deliveryId };
    const marking = { event, hash, key };
    let mark = marks.raiseForItem(entity, item.id, marking, now);
    if (mark === null) {
      // The record's mark was set by an identical item: answered by that item (the original).
      const setter = marks.setter(entity, item.id)!;
      const original = setter.key === null ? undefined : repo.getEvent(setter.key);
      if (original) {
        repo.logItem({ ...base, mark: setter.mark, sameAs: original.key, jobId: original.job_id }, now);
        return { answeredBy: original.key, jobId: original.job_id, redelivery: true };
      }
      // Its log is gone (older than the retention): this one runs, as a new item would.
      mark = marks.raiseForItem(entity, item.id, marking, now, { evenIfSame: true })!;
    }
    // Queued without its secrets (DESIGN §7): handlers read what they need from the CRM record.
    const payload: ItemJobPayload = {
      key,
      event,
      deliveryId,
      item: secretsPossible ? redactSecrets(item) : item,
    };
    // One job per item: the item's row (keyed by delivery and position) is written with it, in
    // this transaction, so the job needs no dedupe key of its own.
    const job = { kind: WEBHOOK_ITEM_JOB, payload, lane: crmRecordLane(entity, item.id) };
    const atOnce = jobs.doneAtOnce(job, () => this.tryDecideFromItem(event, item));
    if (atOnce) {
      repo.logItem({ ...base, mark, sameAs: null, jobId: atOnce.job.id, outcome: atOnce.result }, now);
      return { answeredBy: key, jobId: atOnce.job.id, redelivery: false, decided: atOnce.result };
    }
    const queued = jobs.enqueue(job);
    repo.logItem({ ...base, mark, sameAs: null, jobId: queued.id }, now);
    return { answeredBy: key, jobId: queued.id, redelivery: false };
  }

  /**
   * The outcome of an item that asks nothing of any peer, from the item alone (its area's
   * `decideFromItem`, or a skip when no area handles the event); undefined when it may need one.
   */
  private decideFromItem(event: WebhookEvent, item: WebhookItem): ItemOutcome | undefined {
    const handler = this.handlers.get(event);
    if (!handler) return { success: true, skipped: true, reason: `${event} has no action in this version` };
    return handler.decideFromItem?.(item);
  }

  /**
   * decideFromItem where a throw must not escape: at intake and when the queue chooses slots, both
   * inside a group commit, a throw would fail every delivery of the commit, unlogged (and the CRM
   * gives up on a webhook after four tries). Undecided, the item runs as a job, where a failure is
   * retried and, in the end, shown to the operator.
   */
  private tryDecideFromItem(event: WebhookEvent, item: WebhookItem): ItemOutcome | undefined {
    try {
      return this.decideFromItem(event, item);
    } catch (error) {
      this.deps.logger.warn(
        { err: error, event, id: item.id },
        'item not decided from itself: left to its job',
      );
      return undefined;
    }
  }

  /** An item that failed is on the operator's activity page (its outcome is on its row). */
  private reportFailure(event: WebhookEvent, id: string, deliveryId: number, outcome: ItemOutcome): void {
    if (outcome.success) return;
    this.deps.activity.record('webhook.failed', 'error', `${event} ${id}: ${outcome.error ?? 'failed'}`, {
      event,
      id,
      deliveryId,
    });
  }

  private outcomeOf(key: string): ItemOutcome | null {
    const row = this.deps.repo.getEvent(key);
    return row?.status === 'done' ? row.outcome : null;
  }

  private async runItem(payload: ItemJobPayload, context: JobContext): Promise<ItemOutcome> {
    const { repo, now } = this.deps;
    // A first attempt cannot find its item done (the outcome is stored with the job's done state);
    // a later one may follow an attempt whose outcome was stored as a failure, or older versions' rows.
    if (context.attempt > 1) {
      const existing = repo.getEvent(payload.key);
      if (existing?.status === 'done' && existing.outcome) return existing.outcome;
    }
    let outcome: ItemOutcome;
    try {
      // Decided from the item alone when its lane was busy at intake; else an area handles the
      // event (decideFromItem skips the others), and its handler runs.
      outcome =
        this.decideFromItem(payload.event, payload.item) ??
        (await this.handlers.get(payload.event)!(recordFromCrm(payload.item), {
          event: payload.event,
          deliveryId: payload.deliveryId,
          attempt: context.attempt,
          signal: context.signal,
        }));
    } catch (error) {
      const lastAttempt = retryClassOf(error) === 'permanent' || context.attempt >= context.job.max_attempts;
      if (!lastAttempt || context.signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      repo.finishEvent(payload.key, { success: false, error: message }, now().toISOString());
      throw error;
    }
    // Stored by the job's onDone, in the commit that marks the job done.
    this.reportFailure(payload.event, payload.item.id, payload.deliveryId, outcome);
    return outcome;
  }
}

/**
 * DESIGN §6.1.4: spec responses for one object; `{success, results}` for an array, 500 only
 * when an item newly failed: a redelivered failure is already on its record, and answering it
 * with 500 again would only have EspoCRM send it again.
 */
export function respond(
  single: boolean,
  outcomes: readonly (ItemOutcome | null)[],
  redelivered: readonly boolean[] = [],
): WebhookResult {
  const queued = outcomes.some((o) => o === null);
  const failed = outcomes.some((o, i) => o !== null && !o.success && !redelivered[i]);
  if (single) {
    const outcome = outcomes[0] ?? null;
    if (outcome === null) return { status: 202, body: { success: true, queued: true } };
    if (!outcome.success) {
      return {
        status: 500,
        body: {
          success: false,
          error: outcome.error ?? 'failed',
          ...(outcome.code ? { code: outcome.code } : {}),
        },
      };
    }
    return { status: 200, body: outcome };
  }
  const results = outcomes.map((o) => o ?? { success: true, queued: true });
  if (failed) return { status: 500, body: { success: false, results } };
  if (queued) return { status: 202, body: { success: true, queued: true, results } };
  return { status: 200, body: { success: true, results } };
}
