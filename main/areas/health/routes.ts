import { listActivity, listJobs } from '../../../shared/api/activity.js';
import { getHealth, retryJob } from '../../../shared/api/health.js';
import { AppError } from '../../kernel/app-error.js';
import type { AreaContext, Mount } from '../area.js';
import type { HealthSources } from './sources.js';

export function healthRoutes(mount: Mount, ctx: AreaContext, sources: HealthSources): void {
  const { peers, jobs, activity } = ctx;
  mount(getHealth, ({ caller }) => {
    const catchUp = sources.lastCatchUp();
    // A failed catch-up (the CRM's changes not seen) or posts going out whose records vanished.
    const catchUpDegraded = catchUp != null && (catchUp.status === 'failed' || catchUp.alarm.length > 0);
    const base = {
      success: true as const,
      status: peers.health.degraded() || catchUpDegraded ? ('degraded' as const) : ('ok' as const),
      version: sources.version,
      uptimeS: Math.round((Date.now() - sources.startedAt.getTime()) / 1000),
    };
    if (caller === 'anonymous') return base;
    // A wrong key is a 401 here too, so a dashboard learns its key is wrong.
    if (caller === 'wrong-key') throw AppError.unauthorized();
    return {
      ...base,
      sandbox: ctx.demo !== null,
      peers: peers.health.snapshot(),
      jobs: jobs.counts(),
      lastCollection: sources.lastCollection(),
      quota: sources.quota(),
      lastCatchUp: catchUp,
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
