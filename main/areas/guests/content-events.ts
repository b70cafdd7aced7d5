import type { ItemOutcome, WebhookItem } from '../../../shared/api/webhooks.js';
import type { CrmClient } from '../../peers/crm.js';
import type { Transaction } from '../../kernel/db.js';
import type { ContentStageRow, GuestsRepo } from './repo.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The content stage history (content_stages), kept for the guest timelines and ratios. */
export interface ContentStageLog {
  last(contentId: string): ContentStageRow | undefined;
  add(entry: Parameters<GuestsRepo['addContentStage']>[0], now: string): number;
}

/**
 * ContentProduction webhooks: the stage history (content_stages) and nothing else. The CRM's
 * own hooks (CVideo → CEpisode) stay the CRM's: nothing here writes to it.
 */
export class ContentEvents {
  constructor(
    private readonly deps: {
      stages: ContentStageLog;
      /** Re-checks the held guest workflows linked to the content (DESIGN §6.8). */
      contentChanged: (contentId: string) => Promise<{ checked: number; started: number }>;
      transaction: Transaction;
      crm: CrmClient | null;
      now: () => Date;
    },
  ) {}

  readonly onContentCreated = async (item: WebhookItem): Promise<ItemOutcome> => {
    const current = await this.currentState(item);
    if (!current) return { success: true, skipped: true, reason: 'the content is gone from the CRM' };
    const stage = text(current.stage);
    if (!stage) return { success: true, skipped: true, reason: 'the content has no stage' };
    const { stages, transaction, now } = this.deps;
    const recorded = transaction(() => {
      if (stages.last(item.id)) return false;
      stages.add(
        {
          contentId: item.id,
          stage,
          previous: null,
          enteredAt: text(current.createdAt) ?? now().toISOString(),
          source: 'created',
        },
        now().toISOString(),
      );
      return true;
    });
    return recorded
      ? { success: true, stage, recorded: true }
      : { success: true, skipped: true, reason: 'the bridge already knows this content' };
  };

  /**
   * Update items carry only what changed: no `stage`, no stage change. Any change may fill a
   * value a held guest workflow waits for, so the guests linked to it are re-checked too.
   * With a stage, the stage is
   * taken from the record as it is now, never from the item (DESIGN §6.1.3): an item delivered
   * late, after a newer one, records no transition that did not happen.
   */
  readonly onContentUpdated = async (item: WebhookItem): Promise<ItemOutcome> => {
    const outcome = await this.recordStage(item);
    const holds = await this.deps.contentChanged(item.id);
    if (holds.checked === 0) return outcome;
    return { ...outcome, heldGuestWorkflows: holds.checked, heldGuestWorkflowsStarted: holds.started };
  };

  /**
   * CRM catch-up (DESIGN §6.9), transition-driven: the record as it is now against its last known
   * stage. A change is recorded as 'catch-up', an unknown record (older than EspoCRM's delivery
   * window: catch-up leaves newer ones to their webhooks) as a 'fetched' baseline. Catch-up counts
   * as a CRM event, so the held guest workflows linked to it are re-checked too.
   */
  readonly onCaughtUp = async (id: string): Promise<ItemOutcome> => {
    const outcome = await this.recordStage({ id }, 'catch-up');
    const holds = await this.deps.contentChanged(id);
    if (holds.checked === 0) return outcome;
    return { ...outcome, heldGuestWorkflows: holds.checked, heldGuestWorkflowsStarted: holds.started };
  };

  /** Whether the bridge has a last known stage for the content. */
  readonly knows = (id: string): boolean => this.deps.stages.last(id) !== undefined;

  private async recordStage(
    item: WebhookItem,
    source: 'webhook' | 'catch-up' = 'webhook',
  ): Promise<ItemOutcome> {
    if (source === 'webhook' && !text(item.stage))
      return { success: true, skipped: true, reason: 'stage not changed' };
    const current = await this.currentState(item);
    if (!current) return { success: true, skipped: true, reason: 'the content is gone from the CRM' };
    const stage = text(current.stage);
    if (!stage) return { success: true, skipped: true, reason: 'the content has no stage' };
    const { stages, transaction, now } = this.deps;
    const previous = transaction(() => {
      const last = stages.last(item.id);
      if (last?.stage === stage) return undefined;
      stages.add(
        {
          contentId: item.id,
          stage,
          previous: last?.stage ?? null,
          enteredAt: text(current.modifiedAt) ?? now().toISOString(),
          // A content unknown to catch-up is a baseline, not a transition it saw.
          source: source === 'catch-up' && !last ? 'fetched' : source,
        },
        now().toISOString(),
      );
      return last?.stage ?? null;
    });
    if (previous === undefined) return { success: true, skipped: true, reason: `stage unchanged (${stage})` };
    return { success: true, stage, from: previous, recorded: true };
  }

  /** The record as the CRM has it now; the item itself only when no CRM is configured to ask. */
  private async currentState(item: WebhookItem): Promise<Record<string, unknown> | null> {
    const { crm } = this.deps;
    return crm ? crm.find('ContentProduction', item.id) : item;
  }
}
