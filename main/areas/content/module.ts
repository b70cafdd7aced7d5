import type { AreaContext, AreaModule } from '../area.js';
import type { ContentChanged, ContentStageLog } from '../guests/module.js';
import { ContentEvents } from './content-events.js';

/**
 * Content webhooks: content stages recorded (for the guest timelines and ratios, kept by the
 * guests area). No write to the CRM: its own hooks (CVideo → CEpisode) stay its own. Clip
 * webhooks are the clips area's.
 */
export function contentArea(
  ctx: AreaContext,
  stages: ContentStageLog | null,
  contentChanged: ContentChanged | null = null,
): AreaModule {
  if (!stages) return { name: 'content' };
  const events = new ContentEvents({
    stages,
    contentChanged,
    transaction: ctx.transaction,
    crm: ctx.peers.crm,
    activity: ctx.activity,
    now: ctx.now,
  });
  return {
    name: 'content',
    webhooks: {
      'content-created': events.onContentCreated,
      'content-updated': events.onContentUpdated,
    },
    // DESIGN §6.9: transition-driven, against the last known stage (as guests are).
    catchUp: {
      ContentProduction: { drive: 'transition', knows: events.knows, handle: events.onCaughtUp },
    },
  };
}
