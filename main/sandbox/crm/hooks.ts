import type { CrmStore, WriteEvent } from './store.js';

/** A team notification the CRM raised (spec §2.1: "the team is notified"). */
export interface CrmNotification {
  at: string;
  type: 'clips-available';
  entity: 'ContentProduction';
  id: string;
  message: string;
}

/**
 * The CRM's server-side hooks (spec §2.1), run after every save like EspoCRM's afterSave
 * hooks. Their own writes go through the store, so they fire webhooks too (a
 * content-updated after a clip-created), as a real CRM's hooks do.
 */
export function serverSideHooks(
  store: () => CrmStore,
  notify: (notification: Omit<CrmNotification, 'at'>) => void,
): (event: WriteEvent) => void {
  return (event) => {
    if (event.entity === 'CVideo' && event.after) syncVideoToEpisode(store(), event);
    if (event.entity === 'Clip' && event.action === 'create' && event.after)
      countClip(store(), event, notify);
  };
}

/** A CVideo's progress is mirrored onto its parent CEpisode. */
function syncVideoToEpisode(store: CrmStore, event: WriteEvent): void {
  const video = event.after;
  const episodeId = video?.episodeId;
  if (!video || typeof episodeId !== 'string') return;
  const episode = store.get('CEpisode', episodeId);
  if (!episode) return;
  const changed = new Set(event.changed);
  const patch: Record<string, unknown> = {};
  if (changed.has('recordingStatus') && video.recordingStatus === 'Completed') {
    patch.ampRecordingStatus = 'Completed';
  }
  if (changed.has('transcript')) patch.transcript = video.transcript;
  if (changed.has('editStatus') && video.editStatus === 'Completed') patch.ampEditStatus = 'Completed';
  if (changed.has('aiAnalysis')) patch.aiAnalysis = video.aiAnalysis;
  const clipsBefore = Number(event.before?.clipsCreated ?? 0);
  const clipsAfter = Number(video.clipsCreated ?? 0);
  if (clipsAfter > clipsBefore)
    patch.ampClipsCut = Number(episode.ampClipsCut ?? 0) + (clipsAfter - clipsBefore);
  if (Object.keys(patch).length > 0) store.update('CEpisode', episode.id, patch, event.actor);
}

/** A new Clip of a ContentProduction: one more clip cut, clips available, team told. */
function countClip(
  store: CrmStore,
  event: WriteEvent,
  notify: (notification: Omit<CrmNotification, 'at'>) => void,
): void {
  const contentId = event.after?.contentProductionId;
  if (typeof contentId !== 'string') return;
  const content = store.get('ContentProduction', contentId);
  if (!content) return;
  const cut = Number(content.ampClipsCut ?? 0) + 1;
  store.update(
    'ContentProduction',
    contentId,
    { ampClipsCut: cut, ampClipsStatus: 'Clips Available' },
    event.actor,
  );
  notify({
    type: 'clips-available',
    entity: 'ContentProduction',
    id: contentId,
    message: `New clip "${String(event.after?.name)}" for "${String(content.name)}" (${cut} cut so far)`,
  });
}
