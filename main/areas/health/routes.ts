import { listActivity, listJobs } from '../../../shared/api/activity.js';
import { getHealth, retryJob, type HealthResponse } from '../../../shared/api/health.js';
import { AppError } from '../../kernel/app-error.js';
import { offerOf, type AreaContext, type AreaModule, type Mount } from '../area.js';
import { overdueJobAlarms, peerReasons } from './alarms.js';
import type { HealthSources } from './sources.js';

/** A failed catch-up (the CRM's changes not seen) or posts going out whose records vanished. */
function catchUpReasons(catchUp: HealthResponse['lastCatchUp']): string[] {
  if (!catchUp) return [];
  const reasons: string[] = [];
  if (catchUp.status === 'failed') reasons.push(`CRM catch-up failed: ${catchUp.error ?? 'unknown error'}`);
  if (catchUp.alarm.length > 0) {
    reasons.push(
      `${catchUp.alarm.length} scheduled post${catchUp.alarm.length === 1 ? '' : 's'} still go out although their CRM records vanished: nothing was cancelled`,
    );
  }
  return reasons;
}

export function healthRoutes(
  mount: Mount,
  ctx: AreaContext,
  sources: HealthSources,
  areas: () => readonly AreaModule[],
): void {
  const { peers, jobs, activity } = ctx;
  mount(getHealth, ({ caller }) => {
    const now = ctx.now();
    const alarms = [overdueJobAlarms(jobs, now), ...areas().map((area) => area.alarms?.(now) ?? [])].flat();
    const catchUp = offerOf(areas(), 'lastCatchUp')?.() ?? null;
    // A full disk, a failed catch-up: degraded too, named in the reasons (no post or guest in them).
    const conditions = [...sources.storageReasons(), ...catchUpReasons(catchUp)];
    const degraded = peers.health.degraded() || alarms.length > 0 || conditions.length > 0;
    const base = {
      success: true as const,
      status: degraded ? ('degraded' as const) : ('ok' as const),
      version: sources.version,
      uptimeS: Math.round((Date.now() - sources.startedAt.getTime()) / 1000),
    };
    if (caller === 'anonymous') return base;
    // A wrong key is a 401 here too, so a dashboard learns its key is wrong.
    if (caller === 'wrong-key') throw AppError.unauthorized();
    const peerStates = peers.health.snapshot();
    return {
      ...base,
      // Reasons name posts and guests: only for a caller with the key (DESIGN §4).
      reasons: [...peerReasons(peerStates), ...conditions, ...alarms.map((alarm) => alarm.message)],
      alarms,
      sandbox: ctx.config.sandbox,
      peers: peerStates,
      jobs: jobs.counts(),
      lastCollection: offerOf(areas(), 'lastCollection')?.() ?? null,
      quota: offerOf(areas(), 'quota')?.() ?? null,
      lastCatchUp: catchUp,
    };
  });
  mount(listActivity, ({ query }) => ({ success: true, data: activity.list(query) }));
  mount(listJobs, ({ query }) => ({ success: true, data: jobs.list(query) }));
  mount(retryJob, ({ params }) => {
    if (!jobs.retryFailed(params.id)) {
      throw AppError.notFound(`job ${params.id}: no failed job with that id`);
    }
    const job = jobs.describeJob(params.id);
    activity.record(
      'job.retry',
      'info',
      job
        ? `Failed job sent again by the operator: ${job.what}`
        : 'A failed job was sent again by the operator',
      { jobId: params.id, ...(job?.subject ? { subject: job.subject } : {}) },
    );
    return { success: true, id: params.id };
  });
}
