import type { AreaContext, AreaModule } from '../area.js';
import { createBroadcastRunsRepo } from './repo.js';
import { broadcastsRoutes } from './routes.js';
import { BroadcastService } from './service.js';

export interface BroadcastsTuning {
  /** How often upcoming broadcasts are synced outside their close watch (issue #6: 30 s). */
  autoSyncMs?: number;
  /** How often they are synced from 10 min before their start until done (DESIGN §6.9: 5 s). */
  watchSyncMs?: number;
}

/** Live broadcasts at the host (spec §4.3) and the status sync while any is not complete. */
export function broadcastsArea(ctx: AreaContext, tuning: BroadcastsTuning = {}): AreaModule {
  const autoSyncMs = tuning.autoSyncMs ?? 30_000;
  const watchSyncMs = Math.min(tuning.watchSyncMs ?? 5_000, autoSyncMs);
  const service = new BroadcastService({
    crm: ctx.peers.crm,
    gateway: ctx.peers.gateway,
    activity: ctx.activity,
    runs: ctx.repo(createBroadcastRunsRepo),
    jobs: ctx.jobs,
    logger: ctx.logger,
    now: ctx.now,
    autoSyncMs,
    watchSyncMs,
  });
  ctx.scheduler.every('broadcast auto-sync', watchSyncMs, () => service.tick(), true);
  return {
    name: 'broadcasts',
    routes: (mount) => broadcastsRoutes(mount, service),
    offers: { syncBroadcastsNow: () => service.syncActiveNow() },
    stop: () => service.idle(),
  };
}
