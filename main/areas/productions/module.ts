import { offerOf, type AreaContext, type AreaModule } from '../area.js';
import { productionsRoutes } from './routes.js';
import type { BridgeParts } from './thread.js';

/**
 * The production thread (issue #42, DESIGN §6.11): the CRM's productions and, for one, what the
 * CRM and the other areas hold of it. It keeps nothing of its own; what it reads of the other
 * areas comes through their offers (nothing when an area does not run).
 */
export function productionsArea(ctx: AreaContext): AreaModule {
  let areas: readonly AreaModule[] = [];
  const bridge: BridgeParts = {
    takes: (id) => offerOf(areas, 'productionTakes')?.(id) ?? [],
    analyses: (id) => offerOf(areas, 'productionAnalyses')?.(id) ?? [],
    renders: (ids) => (ids.length === 0 ? [] : (offerOf(areas, 'rendersOf')?.(ids) ?? [])),
    stageHistory: (id) => offerOf(areas, 'contentStageHistory')?.(id) ?? [],
    guestWorkflow: (id) => offerOf(areas, 'latestGuestWorkflow')?.(id) ?? null,
    contentMetrics: (id, since) => offerOf(areas, 'contentMetricsOf')?.(id, since) ?? [],
    postNumbers: (postsvcId) => offerOf(areas, 'latestPostNumbers')?.(postsvcId) ?? null,
    ledgerPosts: (id) => offerOf(areas, 'productionPosts')?.(id) ?? [],
  };
  return {
    name: 'productions',
    routes: (mount) =>
      productionsRoutes(mount, { crm: ctx.peers.crm, activity: ctx.activity, bridge, now: ctx.now }),
    meet(all) {
      areas = all;
    },
  };
}
