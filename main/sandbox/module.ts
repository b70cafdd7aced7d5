import { offerOf, type AreaContext, type AreaModule } from '../areas/area.js';
import { analyticsHistory } from '../areas/analytics/module.js';
import { seedDemoAnalytics } from './demo-analytics.js';
import { seedDemoGuestHistory } from './demo-guest-history.js';
import { seedDemoTakes } from './demo-takes.js';
import { recorderHistory } from '../areas/recorder/module.js';
import type { SandboxPeers } from './index.js';
import { simulatedObsButtons } from './obs-buttons.js';
import { rehearsalControls } from './rehearsal.js';
import { sandboxRoutes } from './routes.js';

/**
 * The sandbox as an area (DESIGN §8), loaded by app.ts in sandbox mode only: every /api/sandbox/*
 * route, and at start the demo history seeded into the areas that run (through their modules'
 * exports), before they start.
 */
export function sandboxArea(ctx: AreaContext, peers: SandboxPeers): AreaModule {
  let areas: readonly AreaModule[] = [];
  const running = (name: string) => areas.some((area) => area.name === name);
  return {
    name: 'sandbox',
    routes: (mount) =>
      sandboxRoutes(mount, ctx, {
        peers,
        rehearsal: rehearsalControls(peers),
        obs: ctx.config.recorder?.simulated ? simulatedObsButtons(peers.obs) : null,
        syncBroadcastsNow: async () => offerOf(areas, 'syncBroadcastsNow')?.(),
      }),
    meet(all) {
      areas = all;
    },
    async start() {
      if (running('analytics')) {
        const seeded = seedDemoAnalytics(analyticsHistory(ctx), peers.crm, ctx.now());
        if (seeded.socialRows + seeded.contentRows > 0) {
          ctx.activity.record(
            'analytics.demo',
            'info',
            `sandbox: seeded ${seeded.socialRows} days×platforms of social metrics and ${seeded.contentRows} content snapshots`,
            seeded,
          );
        }
      }
      if (running('recorder')) seedDemoTakes(recorderHistory(ctx), peers.crm);
      const crm = ctx.peers.crm;
      if (running('guests') && crm) {
        try {
          await seedDemoGuestHistory(ctx, crm);
        } catch (error) {
          ctx.logger.warn({ err: error }, 'guests: demo stage history not seeded');
        }
      }
    },
  };
}
