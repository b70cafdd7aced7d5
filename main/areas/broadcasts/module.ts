import {
  broadcastStatus,
  createBroadcast,
  deleteBroadcast,
  listBroadcasts,
  syncBroadcasts,
} from '../../../shared/api/broadcasts.js';
import { GatewayClient } from '../../peers/gateway.js';
import type { FeatureFactory } from '../../core.js';
import { BroadcastService } from './service.js';

export interface BroadcastsFeatureOptions {
  /** How often live and upcoming broadcasts are synced (issue #6: 30 s). */
  autoSyncMs?: number;
}

/** Live broadcasts at the host (spec §4.3) and the 30 s status sync while any is not complete. */
export function createBroadcastsFeature(options: BroadcastsFeatureOptions = {}): FeatureFactory {
  const autoSyncMs = options.autoSyncMs ?? 30_000;
  return (core) => {
    const gateway = core.config.gateway
      ? new GatewayClient({ ...core.config.gateway, onAttempt: core.peers.observer('gateway') })
      : null;
    const service = new BroadcastService({
      crm: core.crm,
      gateway,
      activity: core.activity,
      jobs: core.jobs,
      logger: core.logger,
      now: core.now,
      autoSyncIntervalS: autoSyncMs / 1000,
    });
    let timer: NodeJS.Timeout | undefined;
    return {
      name: 'broadcasts',
      mountRoutes(mount) {
        mount(createBroadcast, async ({ body }) => {
          const created = await service.create(body);
          return {
            success: true as const,
            broadcastId: created.broadcastId,
            embedUrl: created.embedUrl,
            dashboardUrl: created.dashboardUrl,
            recordId: created.recordId,
            ...(created.warnings.length > 0 ? { warnings: created.warnings } : {}),
          };
        });
        mount(deleteBroadcast, async ({ body }) => ({
          success: true as const,
          message: await service.remove(body.broadcastId),
        }));
        mount(syncBroadcasts, async () => ({ success: true as const, ...(await service.syncAll()) }));
        mount(broadcastStatus, async ({ params }) => ({
          success: true as const,
          broadcast: await service.status(params.broadcastId),
        }));
        mount(listBroadcasts, async () => ({
          success: true as const,
          data: await service.list(),
          autoSync: service.autoSyncState(),
        }));
      },
      start() {
        void service.tick();
        timer = setInterval(() => void service.tick(), autoSyncMs);
        timer.unref();
      },
      async stop() {
        clearInterval(timer);
        await service.idle();
      },
    };
  };
}

export const broadcastsFeature = createBroadcastsFeature();
