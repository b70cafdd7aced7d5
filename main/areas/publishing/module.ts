import type { AreaContext, AreaModule } from '../area.js';
import { createPublishingRepo } from './repo.js';
import { publishingRoutes } from './routes.js';
import { PublishService } from './service.js';

/** A publish still in flight this long after it was sent raises an alarm (DESIGN §6.9). */
const PUBLISH_OVERDUE_MS = 2 * 60_000;

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
        // Queued publishes: a record deleted in the CRM (404, identity checked) is not published.
        tracked: () =>
          repo.queued().map((row) => ({
            id: row.record_id,
            stillHappens: `PlatformPublish ${row.record_id} to ${row.platform ?? 'its platform'} is published when ${row.waiting_on ?? 'its retry'} comes`,
          })),
        vanished: (id) => Promise.resolve(service.vanished(id)),
      },
    },
    // Publishes sent more than 2 min ago with no outcome yet.
    alarms: (now) =>
      repo.publishingSince(new Date(now.getTime() - PUBLISH_OVERDUE_MS).toISOString()).map((row) => ({
        id: `publish:${row.record_id}`,
        kind: 'publish',
        message: `publish ${row.record_id} to ${row.platform ?? 'its platform'} was sent at ${row.claimed_at} and has no outcome yet`,
        since: row.claimed_at ?? now.toISOString(),
      })),
  };
}
