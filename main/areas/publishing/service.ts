import type { Logger } from 'pino';
import { z } from 'zod';
import type { ItemOutcome, WebhookItem } from '../../../shared/api/webhooks.js';
import { dateBoundIssue } from '../../../shared/time-bounds.js';
import type { CrmClient, CrmRecord } from '../../peers/crm.js';
import { describeGatewayError, type GatewayClient, type PublishResult } from '../../peers/gateway.js';
import { PeerError } from '../../peers/peer-error.js';
import type { PublishRouteTable } from '../../config/publish-routes.js';
import { AppError } from '../../kernel/app-error.js';
import { MAX_JOB_ATTEMPTS, PermanentJobError, type JobQueue } from '../../kernel/jobs/queue.js';
import type { LedgerRow, PublishingRepo } from './repo.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { redactText } from '../../kernel/secret-mask.js';
import { crmRecordLane } from '../../kernel/jobs/lane.js';
import type { WebhookItemContext } from '../area.js';
import { capitalize, named, recordSubject, type ActivitySubject } from '../../kernel/activity/subjects.js';
import {
  chooseRoute,
  failureText,
  isPrimaryPlatform,
  publishFields,
  resolveDependency,
  toPublishRecord,
  waitingDependents,
  type DependencyState,
  type PublishRecord,
} from './plan.js';

export const PUBLISH_JOB = 'publishing.publish';
/**
 * Failures where the gateway surely did nothing (connection refused, 429, 503) are tried as many
 * times as any transient failure (DESIGN §6.2: 10, 2 s doubling to 10 min, about 45 min in all)
 * before the record is set to Failed.
 */
export const TRANSIENT_ATTEMPTS = MAX_JOB_ATTEMPTS;
/** A claim older than this without an outcome belongs to a run that vanished (the bridge stopped mid-call). */
export const STALE_CLAIM_MS = 10 * 60_000;

type Trigger = 'webhook' | 'dependency' | 'retry';
interface PublishJobPayload {
  recordId: string;
  trigger: Exclude<Trigger, 'webhook'>;
}
/** The gateway's answer as kept in the ledger, to write it back again if the first write failed. */
const storedResult = z.object({
  platformUrl: z.string(),
  platformId: z.string(),
  streamUrl: z.string().optional(),
  streamKey: z.string().optional(),
  publishedAt: z.string(),
});
type StoredResult = z.infer<typeof storedResult> & PublishResult;

export interface PublishServiceDeps {
  crm: CrmClient | null;
  gateway: GatewayClient | null;
  routes: PublishRouteTable;
  repo: PublishingRepo;
  activity: ActivityLog;
  jobs: JobQueue;
  logger: Logger;
  now: () => Date;
}

const skipped = (reason: string, extra: Record<string, unknown> = {}): ItemOutcome => ({
  success: true,
  skipped: true,
  reason,
  ...extra,
});

/**
 * Platform publishing (spec §3.5, §6; DESIGN §6.4). Every path — a webhook item, a waiting
 * dependent released by its primary, an operator's retry — runs `process`, which reads the
 * record, decides from its current state and claims the ledger before calling the gateway.
 */
export class PublishService {
  constructor(private readonly deps: PublishServiceDeps) {
    deps.jobs.register<PublishJobPayload>(
      PUBLISH_JOB,
      (payload, context) =>
        this.process(payload.recordId, { attempt: context.attempt, trigger: payload.trigger }),
      {
        logDone: false,
        describe: (p) => `publish PlatformPublish ${p.recordId} (${p.trigger})`,
        // The ledger holds the platform, not a name: "A publish record on Videosite" at most.
        subject: (p) => {
          const platform = deps.repo.get(p.recordId)?.platform ?? null;
          return {
            subject: publishSubject(p.recordId, undefined, platform),
            noun: platform ? `${platform} publish record` : undefined,
          };
        },
      },
    );
  }

  /** platform-created and platform-updated. Loop-safe: the echo of a write-back is not Queued. */
  readonly handleItem = async (item: WebhookItem, context: WebhookItemContext): Promise<ItemOutcome> => {
    // A sparse update item that carries its status: only Queued asks for anything (no CRM read for echoes).
    if ('status' in item && item.status !== 'Queued') {
      if (item.status === 'Published') await this.resumeDependents(item.id);
      return skipped(`status is ${String(item.status)}, not Queued`);
    }
    return this.process(item.id, { attempt: context.attempt, trigger: 'webhook' });
  };

  /** CRM catch-up found the queued record deleted (DESIGN §6.9): it is dropped, never published. */
  vanished(recordId: string): ItemOutcome {
    if (!this.deps.repo.dropQueued(recordId, 'the record was deleted in the CRM', this.nowIso()))
      return skipped('nothing queued for this record');
    this.deps.activity.record(
      'publish.vanished',
      'warn',
      `${capitalize(named(publishSubject(recordId, undefined, null)))} was deleted in the CRM while queued: not published`,
      { subject: publishSubject(recordId, undefined, null), id: recordId },
    );
    return { success: true, dropped: true, reason: 'the record was deleted in the CRM' };
  }

  async process(recordId: string, run: { attempt: number; trigger: Trigger }): Promise<ItemOutcome> {
    const crm = this.requireCrm();
    const raw = await crm.find('PlatformPublish', recordId);
    if (!raw) return skipped('the record no longer exists');
    const record = toPublishRecord(raw);
    if (record.status !== 'Queued') {
      if (record.status === 'Published') await this.resumeDependents(recordId, raw);
      return skipped(`status is ${record.status ?? 'empty'}, not Queued`);
    }

    const entry = this.deps.repo.get(recordId);
    if (entry?.status === 'publishing')
      return skipped('a publish of this record is in flight', { inFlight: true });
    if (entry?.status === 'published') return this.restorePublished(raw, entry);
    if (entry?.status === 'failed' && !entry.written_back) return this.restoreFailed(raw, entry);

    const route = chooseRoute(this.deps.routes, record.platform, record.publishType);
    // Before 2000 or more than 5 years ahead (shared/time-bounds.ts): fails at once, a dependent does not wait first.
    const date =
      typeof raw.scheduledAt === 'string' && raw.scheduledAt !== ''
        ? dateBoundIssue('scheduledAt', raw.scheduledAt, this.deps.now())
        : null;
    let dependency: DependencyState = { kind: 'none' };
    if (route.ok && route.dependsOn && !date) {
      const siblings = record.contentProductionId ? await this.siblings(record.contentProductionId) : [];
      dependency = resolveDependency(this.deps.routes, record, route.dependsOn, siblings);
      if (dependency.kind === 'wait') return this.wait(record, raw, entry, dependency);
    }

    const generation = this.deps.repo.claim(this.subject(record), this.nowIso());
    if (generation === null) return skipped('a publish of this record is in flight', { inFlight: true });
    if (!route.ok) return this.fail(raw, generation, { text: route.error });
    if (date) {
      const text = failureText({ code: 'INVALID_DATE', message: date.message });
      return this.fail(raw, generation, { text, code: 'INVALID_DATE' });
    }
    if (dependency.kind === 'fail') return this.fail(raw, generation, { text: dependency.error });
    if (!this.deps.gateway) {
      return this.fail(raw, generation, { text: 'the publishing gateway is not configured (GATEWAY_URL)' });
    }

    const stream = dependency.kind === 'ready' ? dependency : undefined;
    const secrets = [stream?.streamKey];
    let result: PublishResult;
    try {
      result = await this.deps.gateway.publish(
        route.path,
        publishFields(raw, stream),
        `publish:${recordId}:${generation}`,
      );
    } catch (error) {
      return this.gatewayFailed(raw, generation, error, run.attempt, secrets);
    }
    const stored: StoredResult = { ...result, publishedAt: this.nowIso() };
    this.deps.repo.markPublished(recordId, generation, stored, this.nowIso());
    return this.writePublished(raw, stored, { generation, dependentOf: stream ? route.dependsOn : null });
  }

  /** Operator retry (POST /api/publishing/:id/retry): set Queued in the CRM and publish now. */
  async retry(recordId: string): Promise<string> {
    if (!this.deps.crm) throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
    const crm = this.deps.crm;
    const raw = await crm.find('PlatformPublish', recordId);
    if (!raw) throw AppError.notFound(`id: no PlatformPublish record ${recordId}`);
    const record = toPublishRecord(raw);
    if (record.status === 'Published') {
      throw AppError.conflict(
        `id: ${recordId} is already published${raw.platformUrl ? ` at ${String(raw.platformUrl)}` : ''}`,
      );
    }
    const entry = this.deps.repo.get(recordId);
    if (entry?.status === 'publishing') {
      const stale = new Date(this.deps.now().getTime() - STALE_CLAIM_MS).toISOString();
      const note = `the publish started ${entry.claimed_at} never reported back (the bridge stopped during the call): its outcome is unknown`;
      if (!this.deps.repo.abandonStale(recordId, stale, note, this.nowIso())) {
        throw AppError.conflict(`id: a publish of ${recordId} is in flight since ${entry.claimed_at}`);
      }
      this.deps.activity.record(
        'publish.abandoned',
        'warn',
        `${describe(record, raw)}: ${note}; retried by the operator`,
        {
          subject: publishSubject(recordId, raw, record.platform),
          id: recordId,
        },
      );
    }
    if (record.status !== 'Queued') await crm.update('PlatformPublish', recordId, { status: 'Queued' });
    this.deps.jobs.enqueue({
      kind: PUBLISH_JOB,
      payload: { recordId, trigger: 'retry' },
      lane: crmRecordLane('PlatformPublish', recordId),
    });
    this.deps.activity.record(
      'publish.retry',
      'info',
      `${describe(record, raw)}: set to Queued by the operator`,
      {
        subject: publishSubject(recordId, raw, record.platform),
        id: recordId,
        platform: record.platform,
        from: record.status,
      },
    );
    const route = chooseRoute(this.deps.routes, record.platform, record.publishType);
    let what = 'publishing now';
    if (route.ok && route.dependsOn) {
      const siblings = record.contentProductionId ? await this.siblings(record.contentProductionId) : [];
      const dependency = resolveDependency(this.deps.routes, record, route.dependsOn, siblings);
      if (dependency.kind === 'wait') what = `it publishes once ${dependency.on} has published`;
    }
    return record.status === 'Queued' ? what : `set from ${record.status ?? 'empty'} to Queued; ${what}`;
  }

  private async wait(
    record: PublishRecord,
    raw: CrmRecord,
    previous: LedgerRow | undefined,
    dependency: Extract<DependencyState, { kind: 'wait' }>,
  ): Promise<ItemOutcome> {
    if (!this.deps.repo.markWaiting(this.subject(record), dependency.on, dependency.reason, this.nowIso())) {
      return skipped('a publish of this record is in flight', { inFlight: true });
    }
    if (previous?.status !== 'waiting' || previous.note !== dependency.reason) {
      this.deps.activity.record(
        'publish.waiting',
        'info',
        `${describe(record, raw)} waits: ${dependency.reason}`,
        {
          subject: publishSubject(record.id, raw, record.platform),
          id: record.id,
          platform: record.platform,
          waitingOn: dependency.on,
          contentProductionId: record.contentProductionId,
        },
      );
    }
    return { success: true, waiting: true, waitingOn: dependency.on, reason: dependency.reason };
  }

  private async writePublished(
    raw: CrmRecord,
    result: StoredResult,
    context: { generation: number; dependentOf: string | null; restored?: boolean },
  ): Promise<ItemOutcome> {
    const record = toPublishRecord(raw);
    await this.requireCrm().update('PlatformPublish', record.id, {
      status: 'Published',
      platformUrl: result.platformUrl,
      platformId: result.platformId,
      ...(result.streamUrl ? { streamUrl: result.streamUrl } : {}),
      ...(result.streamKey ? { streamKey: result.streamKey } : {}),
      publishedAt: result.publishedAt,
      apiResponse: null,
    });
    this.deps.repo.markWrittenBack(record.id, this.nowIso());
    if (!context.restored) {
      this.deps.activity.record(
        'publish.published',
        'info',
        `${describe(record, raw)} published${context.dependentOf ? ` with ${context.dependentOf}'s stream` : ''}: ${result.platformUrl}`,
        {
          subject: publishSubject(record.id, raw, record.platform),
          id: record.id,
          platform: record.platform,
          platformUrl: result.platformUrl,
          platformId: result.platformId,
          contentProductionId: record.contentProductionId,
        },
      );
    }
    await this.releaseDependents({ ...record, status: 'Published' }, context.generation);
    return {
      success: true,
      status: 'Published',
      platformUrl: result.platformUrl,
      platformId: result.platformId,
    };
  }

  /**
   * The primary has published: its Queued dependents (same ContentProduction) each get a job in
   * their own record's lane, which reads them again and publishes with the primary's stream.
   */
  private async releaseDependents(primary: PublishRecord, generation: number): Promise<void> {
    const now = this.nowIso();
    if (!isPrimaryPlatform(this.deps.routes, primary.platform) || primary.contentProductionId === null) {
      this.deps.repo.markDependentsReleased(primary.id, now);
      await this.forgetSpentStreamKeys(primary);
      return;
    }
    const siblings = await this.siblings(primary.contentProductionId);
    const dependents = waitingDependents(this.deps.routes, primary, siblings);
    for (const dependent of dependents) {
      this.deps.jobs.enqueue({
        kind: PUBLISH_JOB,
        payload: { recordId: dependent.id, trigger: 'dependency' } satisfies PublishJobPayload,
        lane: crmRecordLane('PlatformPublish', dependent.id),
        dedupeKey: `publish-after:${primary.id}:${generation}:${dependent.id}`,
      });
    }
    this.deps.repo.markDependentsReleased(primary.id, now);
    if (dependents.length > 0) {
      this.deps.activity.record(
        'publish.dependents',
        'info',
        `${primary.platform} published: publishing ${dependents.length} waiting record(s) (${dependents.map((d) => d.platform).join(', ')})`,
        {
          subject: publishSubject(primary.id, undefined, primary.platform),
          id: primary.id,
          dependents: dependents.map((d) => d.id),
          contentProductionId: primary.contentProductionId,
        },
      );
    }
    await this.forgetSpentStreamKeys(primary, siblings);
  }

  /**
   * DESIGN §7: the ledger keeps a published record's stream key (to write the result back again)
   * only while a dependent of it is still Queued, waiting to publish with that stream; then it is
   * dropped. Dependents take the key from the primary's CRM record, which keeps it. Runs after
   * every outcome in a production, so the last dependent to publish or fail clears its primary.
   * Best effort: a failed sweep is logged, and the next outcome in the production sweeps again.
   */
  private async forgetSpentStreamKeys(record: PublishRecord, siblings?: PublishRecord[]): Promise<void> {
    const { repo, routes, logger } = this.deps;
    const now = this.nowIso();
    if (record.contentProductionId === null) {
      repo.forgetStreamKey(record.id, now); // without a production, nothing can depend on it
      return;
    }
    const holders = repo.streamKeyHolders(record.contentProductionId);
    if (holders.length === 0) return;
    try {
      const current = siblings ?? (await this.siblings(record.contentProductionId));
      for (const holder of holders) {
        const primary = current.find((s) => s.id === holder.record_id);
        if (primary && waitingDependents(routes, primary, current).length > 0) continue;
        repo.forgetStreamKey(holder.record_id, now);
      }
    } catch (error) {
      logger.warn(
        { err: error, contentProductionId: record.contentProductionId },
        'stream keys of the production kept until its next publish outcome',
      );
    }
  }

  /** A primary published earlier, but its dependents were not handed on (the bridge stopped in between). */
  private async resumeDependents(recordId: string, raw?: CrmRecord): Promise<void> {
    const entry = this.deps.repo.get(recordId);
    if (entry?.status !== 'published' || !entry.written_back || entry.dependents_released) return;
    const record = toPublishRecord(raw ?? (await this.requireCrm().get('PlatformPublish', recordId)));
    await this.releaseDependents(record, entry.generation);
  }

  /** The ledger says published but the record is Queued: write the stored result again, never publish twice. */
  private async restorePublished(raw: CrmRecord, entry: LedgerRow): Promise<ItemOutcome> {
    const result = storedResult.parse(JSON.parse(entry.result ?? 'null'));
    if (entry.written_back) {
      this.deps.activity.record(
        'publish.duplicate',
        'warn',
        `${describe(toPublishRecord(raw), raw)} was already published at ${result.platformUrl}: set back to Published instead of publishing twice (create a new PlatformPublish record to publish again)`,
        {
          subject: publishSubject(raw.id, raw, toPublishRecord(raw).platform),
          id: raw.id,
          platformUrl: result.platformUrl,
        },
      );
    }
    const outcome = await this.writePublished(raw, result, {
      generation: entry.generation,
      dependentOf: null,
      restored: true,
    });
    return { ...outcome, alreadyPublished: true };
  }

  /** The failure is known but did not reach the record: write it (no second gateway call). */
  private async restoreFailed(raw: CrmRecord, entry: LedgerRow): Promise<ItemOutcome> {
    const text = entry.note ?? 'publishing failed';
    await this.requireCrm().update('PlatformPublish', raw.id, { status: 'Failed', apiResponse: text });
    this.deps.repo.markWrittenBack(raw.id, this.nowIso());
    return { success: false, error: text };
  }

  private async gatewayFailed(
    raw: CrmRecord,
    generation: number,
    error: unknown,
    attempt: number,
    secrets: readonly (string | null | undefined)[],
  ): Promise<ItemOutcome> {
    if (!(error instanceof PeerError) || error.peer !== 'gateway') {
      const message = error instanceof Error ? error.message : String(error);
      return this.fail(raw, generation, { text: message, secrets });
    }
    const record = toPublishRecord(raw);
    const failure = describeGatewayError(error);
    if (nothingSent(error) && attempt < TRANSIENT_ATTEMPTS) {
      const note = `attempt ${attempt} failed, nothing was published: ${redactText(failure.message, secrets)}`;
      this.deps.repo.release(raw.id, generation, note, this.nowIso());
      this.deps.activity.record('publish.retry', 'warn', `${describe(record, raw)}: ${note}; trying again`, {
        subject: publishSubject(raw.id, raw, record.platform),
        id: raw.id,
        attempt,
      });
      throw error;
    }
    if (
      failure.outcomeUnknown ||
      error.kind === 'invalid-body' ||
      (error.kind === 'network' && !nothingSent(error))
    ) {
      return this.fail(raw, generation, {
        text: `the gateway did not answer properly (${failure.message}): the outcome is unknown. Check ${record.platform ?? 'the platform'} before setting this record to Queued again.`,
        secrets,
      });
    }
    return this.fail(raw, generation, { text: failureText(failure), code: failure.code, secrets });
  }

  /** Spec §3.5: status Failed, apiResponse the error text; the answer is a failure (HTTP 500). */
  private async fail(
    raw: CrmRecord,
    generation: number,
    failure: { text: string; code?: string | undefined; secrets?: readonly (string | null | undefined)[] },
  ): Promise<ItemOutcome> {
    const record = toPublishRecord(raw);
    const text = redactText(failure.text, failure.secrets ?? []);
    this.deps.repo.markFailed(record.id, generation, text, this.nowIso());
    await this.requireCrm().update('PlatformPublish', record.id, { status: 'Failed', apiResponse: text });
    this.deps.repo.markWrittenBack(record.id, this.nowIso());
    this.deps.activity.record('publish.failed', 'error', `${describe(record, raw)} failed: ${text}`, {
      subject: publishSubject(record.id, raw, record.platform),
      id: record.id,
      platform: record.platform,
      contentProductionId: record.contentProductionId,
      ...(failure.code ? { code: failure.code } : {}),
    });
    // A failed dependent no longer waits for its primary's stream.
    await this.forgetSpentStreamKeys(record);
    return { success: false, error: text, ...(failure.code ? { code: failure.code } : {}) };
  }

  private async siblings(contentProductionId: string): Promise<PublishRecord[]> {
    const records = await this.requireCrm().listAll('PlatformPublish', {
      where: [{ type: 'equals', attribute: 'contentProductionId', value: contentProductionId }],
    });
    return records.map(toPublishRecord);
  }

  private subject(record: PublishRecord) {
    return {
      recordId: record.id,
      platform: record.platform,
      contentProductionId: record.contentProductionId,
    };
  }

  private requireCrm(): CrmClient {
    if (!this.deps.crm) throw new PermanentJobError('the CRM is not configured (CRM_URL)');
    return this.deps.crm;
  }

  private nowIso(): string {
    return this.deps.now().toISOString();
  }
}

/**
 * A publish record as its events name it (issue #30.4): its CRM name or title, else its episode's
 * title with the platform — from the record at hand (no read); null when it carries neither.
 */
function publishSubject(id: string, raw: CrmRecord | undefined, platform: string | null): ActivitySubject {
  const text = (key: string) => (typeof raw?.[key] === 'string' && raw[key] !== '' ? raw[key] : null);
  const episode = text('contentProductionName');
  return recordSubject(
    'publish',
    id,
    text('name') ?? text('title') ?? (episode ? `${episode}${platform ? ` · ${platform}` : ''}` : null),
  );
}

/** `Publish record “Ep 3 · Videosite” on Videosite`, else `A publish record on Videosite`. */
function describe(record: PublishRecord, raw: CrmRecord | undefined): string {
  const subject = publishSubject(record.id, raw, record.platform);
  const on = record.platform && !subject.name?.includes(record.platform) ? ` on ${record.platform}` : '';
  return `${capitalize(named(subject))}${on}`;
}

/** The gateway surely did nothing: the connection was refused, or it answered 429 or 503. */
export function nothingSent(error: PeerError): boolean {
  if (error.kind === 'http') return error.status === 429 || error.status === 503;
  if (error.kind !== 'network') return false;
  const code = causeCode(error.cause);
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

function causeCode(cause: unknown): string | undefined {
  let current = cause;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if ('code' in current && typeof current.code === 'string') return current.code;
    current = current.cause;
  }
  return undefined;
}
