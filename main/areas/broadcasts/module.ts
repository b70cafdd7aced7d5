import type { AreaContext, AreaModule } from '../area.js';
import { broadcastsRoutes } from './routes.js';
import { BroadcastService } from './service.js';

export interface BroadcastsTuning {
  /** How often live and upcoming broadcasts are synced (issue #6: 30 s). */
  autoSyncMs?: number;
}

/** Live broadcasts at the host (spec §4.3) and the 30 s status sync while any is not complete. */
export function broadcastsArea(ctx: AreaContext, tuning: BroadcastsTuning = {}): AreaModule {
  const autoSyncMs = tuning.autoSyncMs ?? 30_000;
  const service = new BroadcastService({
    crm: ctx.peers.crm,
    gateway: ctx.peers.gateway,
    activity: ctx.activity,
    jobs: ctx.jobs,
    logger: ctx.logger,
    now: ctx.now,
    autoSyncIntervalS: autoSyncMs / 1000,
  });
  ctx.scheduler.every('broadcast auto-sync', autoSyncMs, () => service.tick(), true);
  return {
    name: 'broadcasts',
    routes: (mount) => broadcastsRoutes(mount, service),
    stop: () => service.idle(),
  };
}
