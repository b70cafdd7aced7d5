import { listPublishing, retryPublish } from '../../../shared/api/publishing.js';
import { GatewayClient } from '../../peers/gateway.js';
import type { FeatureFactory } from '../../core.js';
import { AppError } from '../../kernel/app-error.js';
import { PublishService } from './service.js';
import { groupByProduction } from './views.js';
import { createPublishingRepo } from './repo.js';

/** Platform publishing (spec §3.5, §6; DESIGN §6.4): the platform webhooks, the panel's list and retry. */
export interface PublishingFeatureOptions {
  /** How long a publish call may take before its outcome counts as unknown (default 30 s). */
  publishTimeoutMs?: number;
}

export function createPublishingFeature(options: PublishingFeatureOptions = {}): FeatureFactory {
  return (core) => {
    const repo = createPublishingRepo(core.db);
    const gateway = core.config.gateway
      ? new GatewayClient({
          ...core.config.gateway,
          onAttempt: core.peers.observer('gateway'),
          ...(options.publishTimeoutMs ? { publishTimeoutMs: options.publishTimeoutMs } : {}),
        })
      : null;
    const routes = core.config.publishRoutes;
    const service = new PublishService({
      crm: core.crm,
      gateway,
      routes,
      repo,
      activity: core.activity,
      jobs: core.jobs,
      logger: core.logger,
      now: core.now,
    });
    core.webhooks.setHandler('platform-created', service.handleItem);
    core.webhooks.setHandler('platform-updated', service.handleItem);

    return {
      name: 'publishing',
      mountRoutes(mount) {
        mount(listPublishing, async ({ query }) => {
          if (!core.crm) throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
          const records = await core.crm.listAll('PlatformPublish', {
            ...(query.contentProductionId
              ? {
                  where: [
                    { type: 'equals', attribute: 'contentProductionId', value: query.contentProductionId },
                  ],
                }
              : {}),
          });
          const ledger = new Map(repo.getMany(records.map((r) => r.id)).map((row) => [row.record_id, row]));
          return {
            success: true as const,
            data: groupByProduction(routes, records, ledger, core.now().getTime()),
            routes: Object.entries(routes).map(([platform, route]) => ({
              platform,
              livestream: route.livestream,
              upload: route.upload,
              dependsOn: route.dependsOn ?? null,
            })),
          };
        });
        mount(retryPublish, async ({ params }) => ({
          success: true as const,
          id: params.id,
          status: 'Queued' as const,
          message: await service.retry(params.id),
        }));
      },
    };
  };
}

export const publishingFeature = createPublishingFeature();
