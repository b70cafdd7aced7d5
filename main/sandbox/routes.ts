import {
  driveSimulatedObs,
  getRehearsal,
  sandboxAutomationReceived,
  setRehearsal,
  startSandboxEncoder,
} from '../../shared/api/sandbox.js';
import { AppError } from '../kernel/app-error.js';
import type { AreaContext, Mount } from '../areas/area.js';
import type { SandboxPeers } from './index.js';
import type { SimulatedObsButtons } from './obs-buttons.js';
import type { RehearsalControls } from './rehearsal.js';

export interface SandboxRouteDeps {
  peers: SandboxPeers;
  rehearsal: RehearsalControls;
  /** The simulated OBS's buttons; null when the bridge does not use it (RECORDER_OBS_URL set, or none). */
  obs: SimulatedObsButtons | null;
  /** Reads the host's broadcasts now (the broadcasts area's), when that area runs. */
  syncBroadcastsNow: () => Promise<void>;
}

/** The sandbox panel's, the simulated encoder's, the automation engine's and OBS's routes (DESIGN §8). */
export function sandboxRoutes(mount: Mount, ctx: AreaContext, deps: SandboxRouteDeps): void {
  const { rehearsal } = deps;
  mount(getRehearsal, () => ({ success: true, peers: rehearsal.state() }));
  mount(setRehearsal, async ({ body }) => {
    const peers = await rehearsal.apply(body.peer, body.fault, body.platform ?? null);
    const what =
      body.fault === 'none'
        ? `sandbox: ${body.peer} put back`
        : body.fault === 'refuse-platform'
          ? `sandbox: the posting provider refuses ${body.platform}`
          : `sandbox: ${body.peer} made to ${body.fault === 'offline' ? 'go offline' : body.fault}`;
    ctx.activity.record('settings.updated', 'info', what, { keys: [] });
    return { success: true, peers };
  });
  mount(startSandboxEncoder, async ({ body }) => {
    let status: string | null;
    try {
      status = startEncoder(deps.peers.gateway, body.broadcastId);
    } catch (error) {
      // The host refuses a broadcast that is over: say why.
      throw AppError.conflict(`broadcastId: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (status === null) throw AppError.notFound(`broadcastId: no broadcast ${body.broadcastId} at the host`);
    // The encoder is the operator's hand here: look at once rather than at the next tick.
    await deps.syncBroadcastsNow();
    return { success: true as const, broadcastId: body.broadcastId, status };
  });
  mount(sandboxAutomationReceived, () => {
    const engine = deps.peers.automation;
    return { success: true, workflows: engine.workflows(), received: engine.received().reverse() };
  });
  mount(driveSimulatedObs, ({ body }) => {
    const obs = deps.obs;
    if (!obs)
      throw AppError.notFound('the simulated OBS runs only in sandbox mode (with RECORDER_OBS_URL unset)');
    const refusal = obs.press(body.action);
    if (refusal) throw AppError.conflict(`action: ${refusal}`, { field: 'action', rule: refusal });
    return { success: true, action: body.action };
  });
}

/**
 * Takes a broadcast live at the simulated host and returns its status; null when the host has no
 * such broadcast; throws (with the host's words) for one that is over.
 */
function startEncoder(gateway: SandboxPeers['gateway'], broadcastId: string): string | null {
  if (!gateway.broadcasts().some((b) => b.id === broadcastId)) return null;
  return gateway.startEncoder(broadcastId).status;
}
