import type { FeatureFactory } from '../../core.js';
import { ContentEvents } from './content-events.js';
import { createGuestsRepo } from '../guests/repo.js';

/**
 * Content and clip webhooks: content stages recorded (for the guest timelines and ratios),
 * clips checked against the platform table of spec §2.3. No write to the CRM: its own hooks
 * (clips cut, CVideo → CEpisode) stay its own.
 */
export const contentFeature: FeatureFactory = (core) => {
  const events = new ContentEvents({
    repo: createGuestsRepo(core.db),
    crm: core.crm,
    activity: core.activity,
    now: core.now,
  });
  core.webhooks.setHandler('content-created', events.onContentCreated);
  core.webhooks.setHandler('content-updated', events.onContentUpdated);
  core.webhooks.setHandler('clip-created', events.onClip);
  core.webhooks.setHandler('clip-updated', events.onClip);
  return { name: 'content' };
};
