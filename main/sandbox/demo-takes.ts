import { suggestRecorderFilename } from '../../shared/recorder-filename.js';
import type { RecorderHistory } from '../areas/recorder/module.js';
import type { SandboxPeers } from './index.js';

const MINUTE = 60_000;
/** Stages after the recording: the episode has its take. */
const RECORDED = new Set(['Editing', 'Review', 'Publishing', 'Published']);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Sandbox mode only (DESIGN §8, issue #42.6): the takes of the demo episodes already recorded, as
 * the recorder would have named them from their production (`YYYYMMDD_<name>` of the scheduled
 * day), started at that time, with a mark at each clip's moment (its hook quote). Only into an
 * empty takes table, so once per data dir; returns how many were seeded.
 */
export function seedDemoTakes(history: RecorderHistory, crm: SandboxPeers['crm']): number {
  if (!history.isEmpty()) return 0;
  const clips = crm.list('Clip');
  const episodes = crm
    .list('ContentProduction')
    .filter((record) => record.contentType === 'Episode' && RECORDED.has(text(record.stage)))
    .map((record) => ({ record, at: Date.parse(`${text(record.scheduledDate).replace(' ', 'T')}Z`) }))
    .filter(({ at }) => !Number.isNaN(at))
    .sort((a, b) => a.at - b.at);
  for (const [i, { record, at }] of episodes.entries()) {
    const ownClips = clips.filter((clip) => clip.contentProductionId === record.id);
    history.addPastTake({
      name: suggestRecorderFilename(text(record.name), new Date(at)),
      startedAt: new Date(at).toISOString(),
      durationMs: (48 + ((i * 7) % 12)) * MINUTE,
      contentProductionId: record.id,
      marks: [
        { label: 'guest intro', offsetMs: 2 * MINUTE },
        ...ownClips.map((clip, n) => ({
          label: `clip: ${text(clip.hookQuote).split(' ').slice(0, 6).join(' ')}`,
          offsetMs: (9 + n * 11) * MINUTE,
        })),
      ],
    });
  }
  return episodes.length;
}
