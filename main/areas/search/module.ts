import { offerOf, type AreaContext, type AreaModule } from '../area.js';
import { searchRoutes } from './routes.js';
import type { BridgeStores } from './search.js';

/**
 * One search (issue #42.3): productions, guests, posts, takes and broadcasts, from the CRM (4 reads)
 * and from what the recorder and the posting ledger store (their offers).
 */
export function searchArea(ctx: AreaContext): AreaModule {
  let stores: BridgeStores = {};
  return {
    name: 'search',
    routes: (mount) => searchRoutes(mount, ctx.peers.crm, () => stores),
    meet(all) {
      const takesNamed = offerOf(all, 'takesNamed');
      const postsContaining = offerOf(all, 'postsContaining');
      stores = { ...(takesNamed ? { takesNamed } : {}), ...(postsContaining ? { postsContaining } : {}) };
    },
  };
}
