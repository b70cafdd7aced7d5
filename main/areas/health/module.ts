import { z } from 'zod';
import { listActivity, listJobs, streamEvents } from '../../../shared/api/activity.js';
import { defineContract } from '../../../shared/api/contract.js';
import { getHealth } from '../../../shared/api/health.js';
import type { FeatureFactory } from '../../core.js';
import { AppError } from '../../kernel/app-error.js';
import { EventStreamHub } from '../../http/event-stream.js';
import { presentedKey, sameSecret } from '../../http/guards.js';
import { buildOpenApi } from '../../http/openapi.js';
import { registeredContracts } from '../../http/route.js';

export const getOpenApi = defineContract({
  method: 'get',
  path: '/openapi.json',
  tag: 'operational',
  summary: 'This API as OpenAPI 3.0, generated from the route contracts.',
  auth: 'key',
  response: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }),
});

export const retryJob = defineContract({
  method: 'post',
  path: '/api/jobs/:id/retry',
  tag: 'operational',
  summary: 'Run a failed job again now (the operator has fixed the cause).',
  auth: 'key',
  params: z.object({ id: z.coerce.number().int().positive() }),
  response: z.object({ success: z.literal(true), id: z.number() }),
});

/** Health, OpenAPI, live events, activity and the job queue. */
export const operationalFeature: FeatureFactory = (core) => {
  const hub = new EventStreamHub(core.activity);
  return {
    name: 'operational',
    mountRoutes(mount) {
      mount(getHealth, ({ req }) => {
        const base = {
          success: true as const,
          status: core.peers.degraded() ? ('degraded' as const) : ('ok' as const),
          version: core.version,
          uptimeS: Math.round((Date.now() - core.startedAt.getTime()) / 1000),
        };
        const key = presentedKey(req, false);
        if (key === undefined) return base;
        if (!sameSecret(key, core.config.apiKey)) throw AppError.unauthorized();
        return {
          ...base,
          sandbox: core.sandbox !== null,
          peers: core.peers.snapshot(),
          jobs: core.jobs.counts(),
          lastCollection: core.health.lastCollection?.() ?? null,
          quota: core.health.quota?.() ?? null,
        };
      });
      mount(getOpenApi, () => buildOpenApi(registeredContracts, core.version));
      mount(streamEvents, ({ res }) => hub.attach(res));
      mount(listActivity, ({ query }) => ({ success: true, data: core.activity.list(query) }));
      mount(listJobs, ({ query }) => ({
        success: true,
        data: core.repos.jobs.list(query).map((job) => ({
          id: job.id,
          kind: job.kind,
          status: job.status,
          attempts: job.attempts,
          runAt: job.run_at,
          lastError: job.last_error,
          createdAt: job.created_at,
          finishedAt: job.finished_at,
        })),
      }));
      mount(retryJob, ({ params }) => {
        if (!core.repos.jobs.retryFailed(params.id, core.now().toISOString())) {
          throw AppError.notFound(`job ${params.id}: no failed job with that id`);
        }
        core.activity.record('job.retry', 'info', `job ${params.id} retried by the operator`, {
          jobId: params.id,
        });
        return { success: true, id: params.id };
      });
    },
    stop: () => hub.close(),
  };
};
