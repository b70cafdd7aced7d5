import {
  broadcastStatus,
  createBroadcast,
  deleteBroadcast,
  endBroadcast,
  listBroadcasts,
  startSandboxEncoder,
  syncBroadcasts,
} from '../../../shared/api/broadcasts.js';
import { AppError } from '../../kernel/app-error.js';
import type { DemoPeers, Mount } from '../area.js';
import type { BroadcastService } from './service.js';

export function broadcastsRoutes(
  mount: Mount,
  service: BroadcastService,
  encoder: DemoPeers['gateway'] | null,
): void {
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
  mount(startSandboxEncoder, async ({ body }) => {
    if (!encoder) throw AppError.notFound('sandbox mode is off: there is no simulated encoder');
    let status: string | null;
    try {
      status = encoder.startEncoder(body.broadcastId);
    } catch (error) {
      // The host refuses a broadcast that is over: say why.
      throw AppError.conflict(`broadcastId: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (status === null) throw AppError.notFound(`broadcastId: no broadcast ${body.broadcastId} at the host`);
    // The encoder is the operator's hand here: look at once rather than at the next tick.
    await service.syncActiveNow();
    return { success: true as const, broadcastId: body.broadcastId, status };
  });
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
