import {
  broadcastStatus,
  createBroadcast,
  deleteBroadcast,
  endBroadcast,
  listBroadcasts,
  syncBroadcasts,
} from '../../../shared/api/broadcasts.js';
import type { Mount } from '../area.js';
import type { BroadcastService } from './service.js';

export function broadcastsRoutes(mount: Mount, service: BroadcastService): void {
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
  mount(endBroadcast, async ({ body }) => ({
    success: true as const,
    broadcastId: body.broadcastId,
    ...(await service.end(body.broadcastId)),
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
}
