import type { ItemOutcome, WebhookItem } from '../../../shared/api/webhooks.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import type { CrmClient } from '../../peers/crm.js';
import { misfitMessage } from '../../../shared/clip-fit.js';
import { recordSubject } from '../../kernel/activity/subjects.js';
import { CLIP_FIT_FIELDS, checkClip } from './clip-fit.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * Clip webhooks: each clip checked against the platform table of spec §2.3, misfits surfaced.
 * The CRM's own hook (clips cut) stays the CRM's: nothing here writes to it.
 */
export class ClipEvents {
  constructor(private readonly deps: { crm: CrmClient | null; activity: ActivityLog }) {}

  readonly onClip = async (item: WebhookItem, context: { event: string }): Promise<ItemOutcome> => {
    const isUpdate = context.event === 'clip-updated';
    if (isUpdate && !CLIP_FIT_FIELDS.some((field) => field in item)) {
      return { success: true, skipped: true, reason: 'no change to duration, ratio, versions or targets' };
    }
    // Items are snapshots (sparse on update): check the clip as the CRM holds it now.
    const clip = this.deps.crm ? await this.deps.crm.find('Clip', item.id) : isUpdate ? null : item;
    if (!clip) {
      return {
        success: true,
        skipped: true,
        reason: this.deps.crm
          ? 'the clip no longer exists in the CRM'
          : 'no CRM configured: the clip cannot be read',
      };
    }
    const fit = checkClip(clip);
    if (fit.fits) return { success: true, fits: true, checked: fit.checked };
    const subject = recordSubject('clip', clip.id, clip.name);
    const messages = fit.problems.map((problem) => problem.message);
    const words = subject.name
      ? misfitMessage(subject.name, fit.problems)
      : `A clip does not fit: ${messages.join('; ')}`;
    this.deps.activity.record('clips.fit', 'warn', words, {
      subject,
      clipId: clip.id,
      contentProductionId: text(clip.contentProductionId),
      problems: fit.problems,
    });
    return { success: true, fits: false, checked: fit.checked, problems: messages };
  };
}
