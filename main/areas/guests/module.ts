import type { StageSource } from '../../../shared/api/guests.js';
import { createKeyValueRepo } from '../../kernel/key-value-repo.js';
import type { AreaContext, AreaModule } from '../area.js';
import { ContentEvents } from './content-events.js';
import { GuestsService } from './guests-service.js';
import { GuestHolds } from './holds.js';
import { createGuestsRepo } from './repo.js';
import { guestsRoutes } from './routes.js';
import { StageTracker } from './stage-tracker.js';
import { TemplateStore } from './template-store.js';
import { GuestWorkflows } from './workflows.js';

/**
 * Guests (spec §1.9, §1.10, §3.3; DESIGN §5.4, §6.1.5): stage history from the guest webhooks,
 * workflows started at n8n once per guest and stage (held while their email would render empty
 * values, DESIGN §6.8), the pipeline ratios, the email templates. The ContentProduction webhooks
 * are theirs too: the content stages they record feed the timelines and ratios, and a content
 * change may fill what a held workflow waits for. Nothing is written to the CRM for content: its
 * own hooks (CVideo → CEpisode) stay its own. Clip webhooks are the clips area's.
 */
export function guestsArea(ctx: AreaContext): AreaModule {
  const repo = ctx.repo(createGuestsRepo);
  const templates = new TemplateStore(ctx.repo(createKeyValueRepo), ctx.now);
  const crm = ctx.peers.crm;
  const workflows = new GuestWorkflows({
    repo,
    jobs: ctx.jobs,
    activity: ctx.activity,
    crm,
    automation: ctx.peers.automation,
    templates,
    now: ctx.now,
  });
  const holds = new GuestHolds({
    repo,
    crm,
    workflows,
    templates,
    activity: ctx.activity,
    now: ctx.now,
  });
  const tracker = new StageTracker({ repo, workflows, holds, activity: ctx.activity, now: ctx.now });
  const content = new ContentEvents({
    stages: {
      last: (contentId) => repo.lastContentStage(contentId),
      add: (entry, now) => repo.addContentStage(entry, now),
    },
    contentChanged: (contentId) => holds.recheckContent(contentId),
    transaction: ctx.transaction,
    crm,
    now: ctx.now,
  });
  const service = new GuestsService({
    repo,
    crm,
    tracker,
    workflows,
    holds,
    templates,
    activity: ctx.activity,
    now: ctx.now,
  });

  return {
    name: 'guests',
    routes: (mount) => guestsRoutes(mount, ctx, { service, repo, templates }),
    offers: {
      contentStageHistory: (contentId) =>
        repo.contentStagesOf(contentId).map((row) => ({
          stage: row.stage,
          previousStage: row.previous_stage,
          enteredAt: row.entered_at,
          source: row.source,
        })),
      latestGuestWorkflow(guestId) {
        const run = repo.runsOf(guestId).at(-1);
        return run
          ? {
              workflow: run.workflow,
              stage: run.stage,
              status: run.status,
              message: run.message,
              at: run.updated_at,
            }
          : null;
      },
    },
    webhooks: {
      'guest-created': service.onCreated,
      'guest-updated': service.onUpdated,
      'content-created': content.onContentCreated,
      'content-updated': content.onContentUpdated,
    },
    // DESIGN §6.9: transition-driven. A known guest is compared with its last known stage (as a
    // guest-updated that did not carry the stage); catch-up leaves a recent unknown guest to its
    // webhooks, and an older one becomes a baseline. Either way holds are re-checked (§6.8).
    catchUp: {
      GuestBooking: {
        drive: 'transition',
        knows: (id) => repo.lastStage(id) !== undefined,
        handle: (id) => service.onCaughtUp(id),
        // Held guests: a guest deleted in the CRM ends its hold (after catch-up's identity check).
        tracked: () =>
          repo.waitingHolds().map((hold) => ({
            id: hold.guestId,
            stillHappens: `${hold.workflow} for ${hold.guestName ?? hold.guestId} stays held`,
          })),
        vanished: (id) => {
          const ended = holds.vanished(id);
          return Promise.resolve(
            ended
              ? {
                  success: true,
                  workflow: ended.workflow,
                  held: false,
                  reason: 'the guest was deleted in the CRM',
                }
              : { success: true, skipped: true, reason: 'no waiting hold' },
          );
        },
      },
      // DESIGN §6.9: transition-driven, against the last known stage (as guests are).
      ContentProduction: { drive: 'transition', knows: content.knows, handle: content.onCaughtUp },
    },
  };
}

/** One step of a guest's stage history, written from outside the webhooks. */
export interface StageHistoryEntry {
  guestId: string;
  stage: string;
  previous: string | null;
  enteredAt: string;
}

/**
 * Stage histories written from outside the webhooks (the sandbox's demo guests, whose CRM records
 * hold only their current stage): `history` is asked for the guests among `guests` that have none
 * yet, and its entries are recorded with `source` in one transaction.
 */
export function addStageHistories<G extends { id: string }>(
  ctx: AreaContext,
  guests: readonly G[],
  history: (fresh: G[]) => StageHistoryEntry[],
  source: StageSource,
): { guests: number; entries: number } {
  const repo = ctx.repo(createGuestsRepo);
  const recordedAt = ctx.now().toISOString();
  return repo.transaction(() => {
    const known = new Set(repo.allStages().map((row) => row.guest_id));
    const fresh = guests.filter((guest) => !known.has(guest.id));
    const entries = history(fresh);
    for (const entry of entries) repo.addStage({ ...entry, source }, recordedAt);
    return { guests: fresh.length, entries: entries.length };
  });
}
