import { listActivity, listJobs } from '../../../shared/api/activity.js';
import { getHealth, retryJob } from '../../../shared/api/health.js';
import { AppError } from '../../kernel/app-error.js';
import type { AreaContext, Mount } from '../area.js';
import { overdueJobAlarms, peerReasons } from './alarms.js';
import type { HealthSources } from './module.js';

export function healthRoutes(mount: Mount, ctx: AreaContext, sources: HealthSources): void {
  const { peers, jobs, activity } = ctx;
  mount(getHealth, ({ caller }) => {
    const now = ctx.now();
    const alarms = [overdueJobAlarms(jobs, now), ...sources.alarms.map((source) => source(now))].flat();
    const degraded = peers.health.degraded() || alarms.length > 0;
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
      reasons: [...peerReasons(peerStates), ...alarms.map((alarm) => alarm.message)],
      alarms,
      sandbox: ctx.demo !== null,
      peers: peerStates,
      jobs: jobs.counts(),
      lastCollection: sources.lastCollection(),
      quota: sources.quota(),
    };
  });
  mount(listActivity, ({ query }) => ({ success: true, data: activity.list(query) }));
  mount(listJobs, ({ query }) => ({ success: true, data: jobs.list(query) }));
  mount(retryJob, ({ params }) => {
    if (!jobs.retryFailed(params.id)) {
      throw AppError.notFound(`job ${params.id}: no failed job with that id`);
    }
    activity.record('job.retry', 'info', `job ${params.id} retried by the operator`, { jobId: params.id });
    return { success: true, id: params.id };
  });
}
