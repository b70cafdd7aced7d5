import type {
  ContentMetricPoint,
  GuestWorkflowState,
  ProductionAnalysis,
  ProductionThread,
  StageEntry,
} from '../../../shared/api/productions.js';
import type { PostView } from '../../../shared/api/posting.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import type { RenderRecord } from '../../../shared/api/renders.js';
import type { CrmClient } from '../../peers/crm.js';
import { contentNumbers } from './content-numbers.js';
import { readCrmParts, type CrmParts } from './crm-reads.js';
import {
  broadcastOrder,
  byScheduledAt,
  toBroadcast,
  toClip,
  toGuest,
  toLedgerPost,
  toPost,
  toProduction,
  toPublish,
} from './thread-items.js';

/** How far back the thread's analytics go. */
const ANALYTICS_DAYS = 90;

/** What the bridge itself knows of a production, from the areas that keep it (empty when one does not run). */
export interface BridgeParts {
  takes(contentProductionId: string): RecorderTake[];
  analyses(contentProductionId: string): ProductionAnalysis[];
  renders(analysisIds: readonly string[]): RenderRecord[];
  stageHistory(contentId: string): StageEntry[];
  guestWorkflow(guestId: string): GuestWorkflowState;
  contentMetrics(contentId: string, since: string): ContentMetricPoint[];
  postNumbers(postsvcId: string): { likes: number; comments: number; shares: number } | null;
  /** The posts scheduled from the dashboard for the production (posting's ledger). */
  ledgerPosts(contentProductionId: string): PostView[];
}

const noCrm: CrmParts = {
  production: null,
  guests: [],
  broadcasts: [],
  clips: [],
  posts: [],
  publishes: [],
  missing: [{ entity: 'ContentProduction', reason: 'no CRM is configured (CRM_URL and CRM_API_KEY)' }],
};

/** One production's whole thread: the CRM's records of it joined with what the bridge keeps. */
export async function buildThread(
  id: string,
  deps: { crm: CrmClient | null; bridge: BridgeParts; now: () => Date },
): Promise<ProductionThread> {
  const { bridge } = deps;
  const crm = deps.crm ? await readCrmParts(deps.crm, id) : noCrm;
  const analyses = bridge.analyses(id);
  const since = new Date(deps.now().getTime() - ANALYTICS_DAYS * 86_400_000).toISOString();
  return {
    success: true,
    production: toProduction(id, crm.production),
    stageHistory: bridge.stageHistory(id),
    guests: crm.guests.map((guest) => toGuest(guest, bridge.guestWorkflow(guest.id))),
    broadcasts: crm.broadcasts.map(toBroadcast).sort(broadcastOrder),
    takes: bridge.takes(id),
    analyses,
    clips: crm.clips.map(toClip),
    renders: bridge.renders(analyses.map((analysis) => analysis.id)),
    posts: [
      ...crm.posts.map((post) => {
        const postsvcId = typeof post.postsvcId === 'string' && post.postsvcId !== '' ? post.postsvcId : null;
        return toPost(post, postsvcId ? bridge.postNumbers(postsvcId) : null);
      }),
      ...bridge
        .ledgerPosts(id)
        .map((view) => toLedgerPost(view, view.postsvcId ? bridge.postNumbers(view.postsvcId) : null)),
    ].sort(byScheduledAt),
    publishes: crm.publishes.map(toPublish).sort(byScheduledAt),
    analytics: contentNumbers(bridge.contentMetrics(id, since)),
    missing: crm.missing,
  };
}
