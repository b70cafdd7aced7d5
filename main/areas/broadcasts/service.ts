import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type {
  AutoSyncState,
  ListedBroadcast,
  RemoteBroadcast,
  SyncResult,
} from '../../../shared/api/broadcasts.js';
import { dateBoundIssue } from '../../../shared/time-bounds.js';
import type { CrmClient, CrmWhere } from '../../peers/crm.js';
import type { CreateBroadcastRequest, GatewayClient } from '../../peers/gateway.js';
import { PeerError } from '../../peers/peer-error.js';
import { peerAppError } from '../../peers/peer-app-error.js';
import { AppError } from '../../kernel/app-error.js';
import type { JobQueue } from '../../kernel/jobs/queue.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { maskStreamSource } from '../../kernel/secret-mask.js';
import { capitalize, named, recordSubject } from '../../kernel/activity/subjects.js';
import {
  broadcastChange,
  closeWatchWindow,
  isActiveBroadcast,
  mapPool,
  toBroadcastRecord,
} from './records.js';
import type { BroadcastRunsRepo } from './repo.js';

export const BROADCAST_RECORD_JOB = 'broadcasts.record';
/** Gateway reads in flight during a sync (the client also rate-limits itself). */
const SYNC_CONCURRENCY = 4;
const GONE_AT_HOST = 'no longer exists at the host';
/** Failures named one by one in the sync's activity entry. */
const LISTED_FAILURES = 10;

export interface BroadcastServiceDeps {
  crm: CrmClient | null;
  gateway: GatewayClient | null;
  activity: ActivityLog;
  /** Viewers sampled at each read while live, and when the bridge saw each end (issue #41.3). */
  runs: BroadcastRunsRepo;
  jobs: JobQueue;
  logger: Logger;
  now: () => Date;
  /** Between reads of upcoming and live broadcasts outside their close watch (30 s). */
  autoSyncMs: number;
  /** Between reads inside a close watch (DESIGN §6.9: 5 s). */
  watchSyncMs: number;
}

export interface CreatedBroadcastResult {
  broadcastId: string;
  embedUrl: string;
  dashboardUrl: string;
  recordId: string | null;
  warnings: string[];
}

type SyncScope = 'all' | 'active';
interface SyncRun extends SyncResult {
  /** Examined records still live or upcoming after the sync (or that could not be read). */
  stillActive: number;
}

/**
 * Live broadcasts (spec §4.3, §3.6): the gateway does the work, the CRM keeps the records, and
 * the bridge follows the host (DESIGN §6.9): every 5 s around and during a broadcast, else 30 s.
 */
export class BroadcastService {
  private syncing: Promise<SyncRun> | null = null;
  /** Ends under way: the timer's sync waits, so a broadcast ended is recorded once, as ended (not also as a status change). */
  private ending = 0;
  private lastRun: AutoSyncState['lastRun'] = null;
  /** Unknown at start: the first tick finds out. */
  private anyActive = true;
  /** Close-watch windows (epoch ms) of the broadcasts seen by the last sync. */
  private watchWindows: Array<{ from: number; until: number }> = [];
  private lastActiveSyncAt = Number.NEGATIVE_INFINITY;
  private lastAutoFailures = '';

  constructor(private readonly deps: BroadcastServiceDeps) {
    deps.jobs.register<{ attributes: Record<string, unknown> }>(
      BROADCAST_RECORD_JOB,
      (payload) => this.writeRecord(payload.attributes),
      {
        describe: (payload) => `CRM record for broadcast ${String(payload.attributes.streamhostId)}`,
        subject: ({ attributes }) => ({
          subject: recordSubject('broadcast', String(attributes.streamhostId), attributes.name),
          noun: 'CRM record of broadcast',
        }),
      },
    );
  }

  /** `contentProductionId`: started from a production's page, the record belongs to it (issue #42.2). */
  async create(
    request: CreateBroadcastRequest & { contentProductionId?: string | undefined },
  ): Promise<CreatedBroadcastResult> {
    // Before 2000 or more than 5 years ahead by the bridge's clock (shared/time-bounds.ts): never sent to the host.
    const date = dateBoundIssue('scheduledAt', request.scheduledAt, this.deps.now());
    if (date) throw AppError.invalidDate(date.message);
    const gateway = this.gateway();
    const secrets = [request.streamSource?.key];
    let created;
    try {
      created = await gateway.createBroadcast(request, randomUUID());
    } catch (error) {
      throw peerAppError(error, { action: 'create broadcast', secrets });
    }
    const attributes = {
      name: request.name,
      streamhostId: created.id,
      status: 'created',
      viewerCount: 0,
      scheduledAt: request.scheduledAt,
      ...(request.channelId !== undefined ? { channelId: request.channelId } : {}),
      embedUrl: created.embedUrl,
      dashboardUrl: created.dashboardUrl,
      ...(request.contentProductionId !== undefined
        ? { contentProductionId: request.contentProductionId }
        : {}),
    };
    const warnings: string[] = [];
    let recordId: string | null = null;
    if (!this.deps.crm) {
      warnings.push('no CRM is configured: the broadcast has no StreamhostBroadcast record');
    } else {
      try {
        recordId = (await this.deps.crm.create('StreamhostBroadcast', attributes)).id;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        warnings.push(
          `the CRM record could not be written (${reason}); the bridge keeps trying in the background`,
        );
        this.deps.jobs.enqueue({
          kind: BROADCAST_RECORD_JOB,
          payload: { attributes },
          dedupeKey: `broadcast-record:${created.id}`,
        });
      }
    }
    this.anyActive = true;
    // Its close watch starts now if its start is near: not only after the next 30 s read.
    const window = closeWatchWindow({ ...toBroadcastRecord({ id: created.id, ...attributes }) });
    if (window) this.watchWindows.push(window);
    this.deps.activity.record(
      'broadcast.created',
      warnings.length > 0 ? 'warn' : 'info',
      `${capitalize(named(recordSubject('broadcast', created.id, request.name)))} created at the host for ${request.scheduledAt}${warnings.length ? ` (${warnings.join('; ')})` : ''}`,
      {
        subject: recordSubject('broadcast', created.id, request.name),
        broadcastId: created.id,
        recordId,
        scheduledAt: request.scheduledAt,
        channelId: request.channelId ?? null,
        settings: request.settings,
        streamSource: request.streamSource ? maskStreamSource(request.streamSource) : null,
      },
    );
    return {
      broadcastId: created.id,
      embedUrl: created.embedUrl,
      dashboardUrl: created.dashboardUrl,
      recordId,
      warnings,
    };
  }

  /** Deletes at the host, then the CRM records that point at it. Pressing it again after a CRM failure finishes the job. */
  async remove(broadcastId: string): Promise<string> {
    const gateway = this.gateway();
    let goneAtHost = false;
    try {
      await gateway.deleteBroadcast(broadcastId);
    } catch (error) {
      if (error instanceof PeerError && error.status === 404) goneAtHost = true;
      else throw peerAppError(error, { action: `delete broadcast ${broadcastId}` });
    }
    const records = this.deps.crm
      ? await this.deps.crm.listAll('StreamhostBroadcast', {
          where: [{ type: 'equals', attribute: 'streamhostId', value: broadcastId }],
        })
      : [];
    if (goneAtHost && records.length === 0)
      throw AppError.notFound(`broadcastId: no broadcast ${broadcastId} at the host`);
    for (const record of records) await this.deps.crm?.remove('StreamhostBroadcast', record.id);
    const message = goneAtHost
      ? `broadcast ${broadcastId} was already gone at the host; ${records.length} CRM record(s) removed`
      : `broadcast ${broadcastId} deleted${records.length ? ` and ${records.length} CRM record(s) removed` : ''}`;
    const subject = recordSubject('broadcast', broadcastId, records[0]?.name);
    this.deps.activity.record(
      'broadcast.deleted',
      'info',
      goneAtHost
        ? `${capitalize(named(subject))} was already gone at the host; ${records.length} CRM record(s) removed`
        : `${capitalize(named(subject))} deleted at the host${records.length ? ` and ${records.length} CRM record(s) removed` : ''}`,
      { subject, broadcastId, recordIds: records.map((r) => r.id) },
    );
    return message;
  }

  async status(broadcastId: string): Promise<RemoteBroadcast> {
    try {
      return await this.gateway().getBroadcast(broadcastId);
    } catch (error) {
      throw peerAppError(error, {
        action: `read broadcast ${broadcastId}`,
        notFound: `broadcastId: no broadcast ${broadcastId} at the host`,
      });
    }
  }

  async list(): Promise<ListedBroadcast[]> {
    const records = await this.crm().listAll('StreamhostBroadcast', {
      orderBy: 'scheduledAt',
      order: 'desc',
    });
    const runs = this.deps.runs.runs();
    return records.map(toBroadcastRecord).map((record) => ({
      ...record,
      run: (record.streamhostId !== null ? runs.get(record.streamhostId) : undefined) ?? null,
    }));
  }

  autoSyncState(): AutoSyncState {
    const intervalMs = this.watching() ? this.deps.watchSyncMs : this.deps.autoSyncMs;
    return { active: this.anyActive, intervalS: intervalMs / 1000, lastRun: this.lastRun };
  }

  /** POST /streamhost/sync: every record with a streamhostId. Waits for a running sync first. */
  async syncAll(): Promise<SyncResult> {
    this.crm();
    this.gateway();
    await this.syncing?.catch(() => undefined);
    const { synced, updated, errors } = await this.runSync('all');
    return { synced, updated, errors };
  }

  /**
   * Runs every `watchSyncMs` (5 s): reads the host when a broadcast is inside its close watch,
   * otherwise every `autoSyncMs` (30 s) while any broadcast is not finished.
   */
  async tick(): Promise<void> {
    if (!this.anyActive || this.syncing || this.ending > 0 || !this.deps.crm || !this.deps.gateway) return;
    const due = this.watching() || this.deps.now().getTime() - this.lastActiveSyncAt >= this.deps.autoSyncMs;
    if (!due) return;
    try {
      await this.runSync('active');
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'broadcast auto-sync failed');
    }
  }

  /** Reads the host now (the sandbox's encoder just took a broadcast live). */
  async syncActiveNow(): Promise<void> {
    this.anyActive = true;
    await this.syncing?.catch(() => undefined);
    await this.runSync('active');
  }

  /**
   * POST /streamhost/end-broadcast (DESIGN §5.3): the host's transition to complete, then the
   * records follow. Reads first, so a gateway that answers `/end` with 404 for a broadcast it
   * does know is one that cannot end broadcasts: said so, and nothing is deleted instead.
   */
  async end(broadcastId: string): Promise<{ status: string; message: string }> {
    // A sync that read the host after the end would write the same change as a status change.
    await this.syncing?.catch(() => undefined);
    this.ending++;
    try {
      return await this.endAtHost(broadcastId);
    } finally {
      this.ending--;
    }
  }

  private async endAtHost(broadcastId: string): Promise<{ status: string; message: string }> {
    const remote = await this.status(broadcastId);
    this.sample(broadcastId, remote);
    if (remote.status === 'revoked') {
      throw AppError.conflict(`broadcastId: broadcast ${broadcastId} was deleted at the host`);
    }
    let status = remote.status;
    if (status !== 'complete') {
      try {
        status = (await this.gateway().endBroadcast(broadcastId)).status;
      } catch (error) {
        if (error instanceof PeerError && error.peer === 'gateway' && error.status === 404) {
          throw new AppError(
            'unavailable',
            'END_NOT_SUPPORTED',
            `the publishing gateway cannot end broadcasts (POST /streamhost/broadcasts/${broadcastId}/end answered 404): end "${remote.name}" in the host's own dashboard; nothing was deleted`,
          );
        }
        throw peerAppError(error, { action: `end broadcast ${broadcastId}` });
      }
    }
    const after = await this.status(broadcastId);
    this.sample(broadcastId, after);
    const records = this.deps.crm
      ? (
          await this.deps.crm.listAll('StreamhostBroadcast', {
            where: [{ type: 'equals', attribute: 'streamhostId', value: broadcastId }],
          })
        ).map(toBroadcastRecord)
      : [];
    for (const record of records) {
      const change = broadcastChange(record, after);
      if (change) await this.deps.crm?.update('StreamhostBroadcast', record.id, change.changes);
    }
    const subject = recordSubject('broadcast', broadcastId, records[0]?.name ?? remote.name);
    const message =
      remote.status === 'complete'
        ? `${capitalize(named(subject))} had already ended at the host`
        : `${capitalize(named(subject))} ended: ${after.status} at the host${records.length ? `, ${records.length} CRM record(s) updated` : ''}`;
    this.deps.activity.record('broadcast.ended', 'info', message, {
      subject,
      broadcastId,
      recordIds: records.map((record) => record.id),
    });
    return { status: after.status || status, message };
  }

  /** Resolves when a running sync has finished (shutdown). */
  async idle(): Promise<void> {
    await this.syncing?.catch(() => undefined);
  }

  private runSync(scope: SyncScope): Promise<SyncRun> {
    const run = this.sync(scope).finally(() => {
      if (this.syncing === run) this.syncing = null;
    });
    this.syncing = run;
    return run;
  }

  private async sync(scope: SyncScope): Promise<SyncRun> {
    const crm = this.crm();
    const gateway = this.gateway();
    const where: CrmWhere[] = [{ type: 'isNotNull', attribute: 'streamhostId' }];
    const records = (await crm.listAll('StreamhostBroadcast', { where }))
      .map(toBroadcastRecord)
      .filter(
        (record) => record.streamhostId !== null && (scope === 'all' || isActiveBroadcast(record.status)),
      );
    if (scope === 'active') this.lastActiveSyncAt = this.deps.now().getTime();

    // One read per host broadcast, however many records point at it.
    const hostIds = [...new Set(records.map((record) => record.streamhostId!))];
    const reads = await mapPool(hostIds, SYNC_CONCURRENCY, (id) =>
      gateway.getBroadcast(id).then(
        (remote) => ({ ok: true as const, remote }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
    );
    const remoteById = new Map(hostIds.map((id, i) => [id, reads[i]!]));
    for (const [id, read] of remoteById) if (read.ok) this.sample(id, read.remote);

    const failures: { id: string; name: string; error: string }[] = [];
    const outcomes = await mapPool(records, SYNC_CONCURRENCY, async (record) => {
      try {
        const read = remoteById.get(record.streamhostId!)!;
        if (!read.ok) throw read.error;
        const remote = read.remote;
        const change = broadcastChange(record, remote);
        if (change) {
          await crm.update('StreamhostBroadcast', record.id, change.changes);
          if (change.statusChangedFrom !== undefined) {
            this.deps.activity.record(
              'broadcast.status',
              'info',
              `${capitalize(named(recordSubject('broadcast', record.id, record.name)))}: ${change.statusChangedFrom ?? 'none'} → ${remote.status} (${remote.viewerCount} viewers)`,
              {
                subject: recordSubject('broadcast', record.id, record.name),
                id: record.id,
                streamhostId: record.streamhostId,
                from: change.statusChangedFrom,
                to: remote.status,
                viewerCount: remote.viewerCount,
              },
            );
          }
        }
        const window = closeWatchWindow({
          ...record,
          status: remote.status,
          startedAt: remote.startedAt ?? record.startedAt,
        });
        return { updated: change !== null, active: isActiveBroadcast(remote.status), window };
      } catch (error) {
        const reason =
          error instanceof PeerError && error.peer === 'gateway' && error.status === 404
            ? GONE_AT_HOST
            : error instanceof Error
              ? error.message
              : String(error);
        failures.push({ id: record.id, name: record.name, error: reason });
        // A broadcast gone at the host leaves the close watch; other failures keep it there.
        const gone = reason === GONE_AT_HOST;
        return { updated: false, active: true, window: gone ? null : closeWatchWindow(record) };
      }
    });

    const run: SyncRun = {
      synced: records.length,
      updated: outcomes.filter((o) => o.updated).length,
      errors: failures.length,
      stillActive: outcomes.filter((o) => o.active).length,
    };
    this.lastRun = {
      at: this.deps.now().toISOString(),
      scope,
      synced: run.synced,
      updated: run.updated,
      errors: run.errors,
    };
    this.anyActive = run.stillActive > 0;
    this.watchWindows = outcomes.flatMap((o) => (o.window ? [o.window] : []));
    this.recordSync(scope, run, failures);
    return run;
  }

  private recordSync(
    scope: SyncScope,
    run: SyncRun,
    failures: { id: string; name: string; error: string }[],
  ): void {
    // The timer runs every 5 to 30 s: status changes have their own entries, and its failures are
    // worth a line only when they change (a broadcast gone at the host would repeat forever).
    if (scope === 'active') {
      const signature = failures
        .map((f) => `${f.id}:${f.error}`)
        .sort()
        .join('|');
      const repeated = signature === this.lastAutoFailures;
      this.lastAutoFailures = signature;
      if (run.errors === 0 || repeated) return;
    }
    const listed = failures.slice(0, LISTED_FAILURES).map((f) => `"${f.name}": ${f.error}`);
    const more = failures.length > LISTED_FAILURES ? `; and ${failures.length - LISTED_FAILURES} more` : '';
    this.deps.activity.record(
      'broadcast.sync',
      run.errors > 0 ? 'warn' : 'info',
      `${scope === 'all' ? 'broadcast sync' : 'broadcast auto-sync'}: ${run.synced} examined, ${run.updated} updated, ${run.errors} error(s)${listed.length ? ` (${listed.join('; ')}${more})` : ''}`,
      {
        scope,
        synced: run.synced,
        updated: run.updated,
        errors: run.errors,
        failures: failures.slice(0, 50),
      },
    );
  }

  /** The CRM record of a broadcast whose first write failed; skipped when it exists by now. */
  private async writeRecord(attributes: Record<string, unknown>): Promise<{ recordId: string }> {
    const crm = this.crm();
    const existing = await crm.list('StreamhostBroadcast', {
      where: [{ type: 'equals', attribute: 'streamhostId', value: String(attributes.streamhostId) }],
      maxSize: 1,
    });
    const found = existing.list[0];
    if (found) return { recordId: found.id };
    const record = await crm.create('StreamhostBroadcast', attributes);
    return { recordId: record.id };
  }

  /** A read of the host: a live one is a viewer sample, the first finished one after those its end. */
  private sample(streamhostId: string, remote: RemoteBroadcast): void {
    const at = this.deps.now();
    if (remote.status === 'live') this.deps.runs.sampleLive(streamhostId, remote.viewerCount, at);
    else if (!isActiveBroadcast(remote.status)) this.deps.runs.ended(streamhostId, at);
  }

  /** Some broadcast is inside its close watch now (read every 5 s). */
  private watching(): boolean {
    const now = this.deps.now().getTime();
    return this.watchWindows.some((window) => window.from <= now && now <= window.until);
  }

  private gateway(): GatewayClient {
    if (!this.deps.gateway) throw AppError.notConfigured('the publishing gateway', 'GATEWAY_URL');
    return this.deps.gateway;
  }

  private crm(): CrmClient {
    if (!this.deps.crm) throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
    return this.deps.crm;
  }
}
