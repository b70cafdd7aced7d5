import type { AreaContext, AreaModule } from '../area.js';
import { createPublishingRepo } from './repo.js';
import { publishingRoutes } from './routes.js';
import { PublishService } from './service.js';

/** Platform publishing (spec §3.5, §6; DESIGN §6.4): the platform webhooks, the panel's list and retry. */
export function publishingArea(ctx: AreaContext): AreaModule {
  const repo = ctx.repo(createPublishingRepo);
  const routes = ctx.config.publishRoutes;
  const service = new PublishService({
    crm: ctx.peers.crm,
    gateway: ctx.peers.gateway,
    routes,
    repo,
    activity: ctx.activity,
    jobs: ctx.jobs,
    logger: ctx.logger,
    now: ctx.now,
  });
  return {
    name: 'publishing',
    routes: (mount) => publishingRoutes(mount, ctx, { service, repo, routes }),
    webhooks: { 'platform-created': service.handleItem, 'platform-updated': service.handleItem },
    // DESIGN §6.9: state-driven; a Queued record is decided by the publish ledger, as a webhook's is.
    catchUp: {
      PlatformPublish: {
        drive: 'state',
        handle: (id) => service.process(id, { attempt: 1, trigger: 'webhook' }),
      },
    },
  };
}
