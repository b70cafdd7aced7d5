import { listPublishing, retryPublish } from '../../../shared/api/publishing.js';
import type { PublishRouteTable } from '../../config/publish-routes.js';
import { AppError } from '../../kernel/app-error.js';
import type { AreaContext, Mount } from '../area.js';
import type { PublishingRepo } from './repo.js';
import type { PublishService } from './service.js';
import { groupByProduction } from './views.js';

export function publishingRoutes(
  mount: Mount,
  ctx: AreaContext,
  deps: { service: PublishService; repo: PublishingRepo; routes: PublishRouteTable },
): void {
  const { service, repo, routes } = deps;
  mount(listPublishing, async ({ query }) => {
    const crm = ctx.peers.crm;
    if (!crm) throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
    const records = await crm.listAll('PlatformPublish', {
      ...(query.contentProductionId
        ? {
            where: [{ type: 'equals', attribute: 'contentProductionId', value: query.contentProductionId }],
          }
        : {}),
    });
    const ledger = new Map(repo.getMany(records.map((r) => r.id)).map((row) => [row.record_id, row]));
    return {
      success: true as const,
      data: groupByProduction(routes, records, ledger, ctx.now().getTime()),
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
}
