import type { RehearsalFault, RehearsalPeer, RehearsalState } from '../../shared/api/sandbox.js';
import { rehearsalPeers } from '../../shared/api/sandbox.js';
import { postingPlatforms, type PlatformKey } from '../../shared/platforms.js';
import type { SandboxPeers } from './index.js';

/** Long enough to last a rehearsal: a fault otherwise wears off after `times` requests. */
const UNTIL_PUT_BACK = 1_000_000;

/**
 * The sandbox panel's controls (DESIGN §8, issue #30.7) over the simulators' own fault controls:
 * one rehearsal per peer at a time; `none` puts the peer back as it was.
 */
export function rehearsalControls(sandbox: SandboxPeers) {
  const current = new Map<RehearsalPeer, RehearsalState>(
    rehearsalPeers.map((peer) => [peer, { peer, fault: 'none', platform: null }]),
  );

  async function putBack(peer: RehearsalPeer): Promise<void> {
    const simulator = sandbox[peer];
    simulator.faults.clearFaults();
    await simulator.faults.refuseConnections(false);
    const refused = current.get(peer)?.platform;
    if (peer === 'postsvc' && refused) sandbox.postsvc.failPlatform(refused, null);
  }

  return {
    state: (): RehearsalState[] => [...current.values()],
    async apply(
      peer: RehearsalPeer,
      fault: RehearsalFault,
      platform: PlatformKey | null,
    ): Promise<RehearsalState[]> {
      await putBack(peer);
      const faults = sandbox[peer].faults;
      if (fault === 'fail') {
        faults.injectFault({
          status: 500,
          body: { status: 'error', code: 500, message: 'Simulated outage (sandbox rehearsal)' },
          times: UNTIL_PUT_BACK,
        });
      } else if (fault === 'throttle') {
        faults.injectFault({
          status: 429,
          headers: { 'Retry-After': '60' },
          body: { status: 'error', code: 429, message: 'Too many requests (sandbox rehearsal)' },
          times: UNTIL_PUT_BACK,
        });
      } else if (fault === 'offline') {
        await faults.refuseConnections(true);
      } else if (fault === 'refuse-platform' && platform) {
        sandbox.postsvc.failPlatform(
          platform,
          `${postingPlatforms[platform].label} refused the post (sandbox rehearsal: the account needs reconnecting).`,
        );
      }
      current.set(peer, { peer, fault, platform: fault === 'refuse-platform' ? platform : null });
      return [...current.values()];
    },
  };
}

export type RehearsalControls = ReturnType<typeof rehearsalControls>;
