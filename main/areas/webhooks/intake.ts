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
import type { JobContext, JobQueue, RunEnd } from '../../kernel/jobs/queue.js';
import type { JobRow } from '../../kernel/jobs/repo.js';
import { retryClassOf } from '../../kernel/jobs/retry-class.js';
import { crmRecordLane } from '../../kernel/jobs/lane.js';
import type { WebhooksRepo } from './repo.js';
import type { GroupCommit } from '../../kernel/commit-group.js';
import { isRecordJobHandler, type RecordJobHandler, type WebhookItemHandler } from '../area.js';
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

/** How one item of a delivery was taken in: answered at once, or by a job (its own, or its record's run). */
interface Entry {
  answeredBy: string;
  jobId: number | null;
  /** The record job's run that answers it (null: a job of its own). */
  run: number | null;
  redelivery: boolean;
  decided?: ItemOutcome;
  /** The record's job is busy with what came before: answered 202 at once, never waited for. */
  busy?: boolean;
}

/**
 * Webhook processing of DESIGN §6.1: log the delivery, key every item, run each item once
 * through the durable queue (one lane per CRM record, so a record's events stay in order),
 * wait up to the budget, answer with what finished and leave the rest to the queue (202).
 */
export class WebhookIntake {
  private readonly handlers = new Map<WebhookEvent, WebhookItemHandler | RecordJobHandler>();
  /** The record-job kinds whose run ends finish the items waiting for them. */
  private readonly observed = new Set<string>();

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

  setHandler(event: WebhookEvent, handler: WebhookItemHandler | RecordJobHandler): void {
    this.handlers.set(event, handler);
    if (!isRecordJobHandler(handler) || this.observed.has(handler.recordJob.kind)) return;
    this.observed.add(handler.recordJob.kind);
    this.deps.jobs.onRunEnd(handler.recordJob.kind, (_payload, end, job) => this.finishWaiting(job.id, end));
  }

  hasHandler(event: WebhookEvent): boolean {
    return this.handlers.has(event);
  }

  async receive(
    event: WebhookEvent,
    body: WebhookItem | WebhookItem[],
    meta: {
      rawPayload: string;
      payloadHash?: string;
      signedBy: string | null;
      secretsPossible?: boolean;
      /** When the request's first byte arrived (epoch ms): the budget counts from it. */
      receivedAt?: number;
    },
  ): Promise<WebhookResult> {
    const started = meta.receivedAt ?? Date.now();
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
      const created = new Set<number>();
      const entries = items.map((item, index) =>
        this.logItem(entity, event, deliveryId, index, item, now, meta.secretsPossible ?? true, created),
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
    for (const [index, entry] of tracked.entries.entries()) {
      if (entry.decided) {
        outcomes.push(entry.decided);
        continue;
      }
      // Out of time: the rest are read as they stand, without a wait (and a timer turn) each.
      // A record whose job is busy with what came before: 202 now, never the budget waited out.
      let finished: JobRow | undefined;
      if (entry.jobId !== null && !entry.busy && remaining() > 0) {
        if (entry.run !== null) await jobs.waitForRun(entry.jobId, entry.run, remaining());
        else finished = await jobs.waitFor(entry.jobId, remaining(), !entry.redelivery);
      }
      // A job done is its item's outcome (stored in the same commit); anything else is read.
      const outcome =
        !entry.redelivery && finished?.status === 'done' && finished.result !== null
          ? (JSON.parse(finished.result) as ItemOutcome)
          : this.outcomeOf(entry.answeredBy);
      outcomes.push(outcome && this.answerFor(event, items[index]!, outcome));
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
    meta: { rawPayload: string; signedBy: string | null; receivedAt?: number },
  ) {
    const started = meta.receivedAt ?? Date.now();
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
   * nothing and is answered with the earlier item's outcome; every other item raises the mark.
   * An item of a record driven by one job per record (issue #36.2) enqueues or joins that job
   * (or is decided at intake where its area allows); any other item gets its own job, keyed by
   * delivery and position, not by content.
   */
  private logItem(
    entity: string,
    event: WebhookEvent,
    deliveryId: number,
    index: number,
    item: WebhookItem,
    now: string,
    secretsPossible: boolean,
    created: Set<number>,
  ): Entry {
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
        repo.logItem(
          {
            ...base,
            mark: setter.mark,
            sameAs: original.key,
            jobId: original.job_id,
            jobRun: original.job_run,
          },
          now,
        );
        return { answeredBy: original.key, jobId: original.job_id, run: original.job_run, redelivery: true };
      }
      // Its log is gone (older than the retention): this one runs, as a new item would.
      mark = marks.raiseForItem(entity, item.id, marking, now, { evenIfSame: true })!;
    }
    const handler = this.handlers.get(event);
    if (!handler) {
      const outcome = { success: true, skipped: true, reason: `${event} has no action in this version` };
      repo.logItem({ ...base, mark, sameAs: null, jobId: null, outcome }, now);
      return { answeredBy: key, jobId: null, run: null, redelivery: false, decided: outcome };
    }
    const lane = crmRecordLane(entity, item.id);
    if (isRecordJobHandler(handler)) {
      // Never while work for the record is under way: the item then waits its turn in the lane.
      const decided = jobs.laneBusy(lane) ? undefined : this.tryDecideAtIntake(event, handler, item);
      if (decided) {
        repo.logItem({ ...base, mark, sameAs: null, jobId: null, outcome: decided }, now);
        return { answeredBy: key, jobId: null, run: null, redelivery: false, decided };
      }
      const held = jobs.laneHeld(lane);
      const joined = jobs.enqueueOrJoin({
        kind: handler.recordJob.kind,
        payload: handler.recordJob.payload(item.id, 'webhook'),
        lane,
      });
      if (joined.joined === 'new') created.add(joined.job.id);
      repo.logItem({ ...base, mark, sameAs: null, jobId: joined.job.id, jobRun: joined.run }, now);
      return {
        answeredBy: key,
        jobId: joined.job.id,
        run: joined.run,
        redelivery: false,
        busy: joined.joined === 'new' ? held : !created.has(joined.job.id),
      };
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
    const queued = jobs.enqueue({ kind: WEBHOOK_ITEM_JOB, payload, lane });
    repo.logItem({ ...base, mark, sameAs: null, jobId: queued.id }, now);
    return { answeredBy: key, jobId: queued.id, run: null, redelivery: false };
  }

  /**
   * The area's decision at intake, where a throw must not escape: inside a group commit it would
   * fail every delivery of the commit, unlogged (and the CRM gives up on a webhook after four
   * tries). Undecided, the item joins its record's job, where a failure is retried and shown.
   */
  private tryDecideAtIntake(
    event: WebhookEvent,
    handler: RecordJobHandler,
    item: WebhookItem,
  ): ItemOutcome | undefined {
    try {
      return handler.decideAtIntake?.(item);
    } catch (error) {
      this.deps.logger.warn(
        { err: error, event, id: item.id },
        'item not decided at intake: left to its job',
      );
      return undefined;
    }
  }

  /** The answer of an item from its stored outcome, worded by its area (a stale item says so). */
  private answerFor(event: WebhookEvent, item: WebhookItem, outcome: ItemOutcome): ItemOutcome {
    const handler = this.handlers.get(event);
    return handler && isRecordJobHandler(handler) && handler.answerFor
      ? handler.answerFor(item, outcome)
      : outcome;
  }

  /**
   * An item job queued by an earlier version for an event now driven by its record's job (a
   * stop across an upgrade): the item joins that job, which reads the record.
   */
  private forwardToRecordJob(handler: RecordJobHandler, payload: ItemJobPayload): ItemOutcome {
    const entity = webhookEntity[payload.event];
    this.deps.jobs.enqueueOrJoin({
      kind: handler.recordJob.kind,
      payload: handler.recordJob.payload(payload.item.id, 'webhook'),
      lane: crmRecordLane(entity, payload.item.id),
    });
    return { success: true, queued: true, reason: "handed to the record's job" };
  }

  /**
   * A record job's run ended (in the commit that records it): the items that waited for it, or for
   * an earlier run, take its outcome. A run that will be tried again leaves them queued, with why.
   */
  private finishWaiting(jobId: number, end: RunEnd): void {
    const outcome: ItemOutcome =
      end.status === 'done'
        ? (end.result as ItemOutcome)
        : end.status === 'retry'
          ? { success: true, queued: true, reason: end.error }
          : { success: false, error: end.error };
    const finished = this.deps.repo.finishWaiting(jobId, end.run, outcome, this.deps.now().toISOString());
    if (outcome.success) return;
    for (const item of finished) {
      this.reportFailure(item.event as WebhookEvent, item.entity_id, item.delivery_id, outcome);
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
      const handler = this.handlers.get(payload.event);
      outcome = !handler
        ? { success: true, skipped: true, reason: `${payload.event} has no action in this version` }
        : isRecordJobHandler(handler)
          ? this.forwardToRecordJob(handler, payload)
          : await handler(recordFromCrm(payload.item), {
              event: payload.event,
              deliveryId: payload.deliveryId,
              attempt: context.attempt,
              signal: context.signal,
            });
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
