import { search } from '../../../shared/api/search.js';
import type { Mount } from '../area.js';
import { runSearch, type BridgeStores } from './search.js';
import type { CrmClient } from '../../peers/crm.js';

export function searchRoutes(mount: Mount, crm: CrmClient | null, stores: () => BridgeStores): void {
  mount(search, async ({ query }) => ({ success: true, ...(await runSearch(query.q, crm, stores())) }));
}
