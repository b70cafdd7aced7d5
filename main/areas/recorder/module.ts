import { locateMediaTools } from '../../kernel/media-tools.js';
import type { AreaContext, AreaModule } from '../area.js';
import { intervalClock } from '../../kernel/clock.js';
import { ffprobeAudioChannels } from './audio-channels.js';
import { clearedAtRestart } from './cleared-at-restart.js';
import { Recorder } from './recorder.js';
import { recorderPeerReading } from './recorder-peer.js';
import { RecorderState } from './recorder-state.js';
import { createRecorderRepo } from './repo.js';
import { recorderRoutes } from './routes.js';

/**
 * The recorder's next filename (spec §4.5, DESIGN §6.7): held in memory, applied to OBS when one is
 * configured (peers.obs), takes and marks kept in SQLite; a take with its marks for the clips
 * area's pinned clips (DESIGN §6.6).
 */
export function recorderArea(ctx: AreaContext): AreaModule {
  const repo = ctx.repo(createRecorderRepo);
  const recorder = new Recorder({
    obs: ctx.peers.obs,
    simulated: ctx.config.recorder?.simulated === true,
    state: new RecorderState(ctx.now().toISOString(), clearedAtRestart(ctx.activity, ctx.now())),
    repo,
    activity: ctx.activity,
    now: ctx.now,
    elapsedMs: intervalClock(ctx.now),
    probeAudio: ffprobeAudioChannels(locateMediaTools(ctx.config).ffprobe?.path ?? null),
  });
  return {
    name: 'recorder',
    routes: (mount) => recorderRoutes(mount, recorder, repo, ctx),
    start: () => ctx.peers.obs?.start(),
    stop: () => ctx.peers.obs?.stop(),
    offers: {
      take: (id) => repo.take(id),
      takesNamed: (text, limit) => repo.named(text, limit),
      productionTakes: (contentProductionId) => repo.takesOf(contentProductionId),
      recorderPeer: () => (ctx.peers.obs ? recorderPeerReading(ctx.peers.obs, ctx.now()) : null),
    },
  };
}

/** A take recorded before the bridge knew of it, as the sandbox seeds its demo (DESIGN §8). */
export interface PastTake {
  name: string;
  startedAt: string;
  durationMs: number;
  marks: Array<{ label: string; offsetMs: number }>;
  /** The production it was named from. */
  contentProductionId: string;
}

/** The recorder's takes for the sandbox's demo history: seeded only into an empty table (once per data dir). */
export function recorderHistory(ctx: AreaContext) {
  const repo = ctx.repo(createRecorderRepo);
  return {
    isEmpty: () => repo.takes(1).length === 0,
    addPastTake(take: PastTake): void {
      const open = repo.startTake({
        name: take.name,
        baseName: take.name,
        filePath: null,
        startedAt: take.startedAt,
        contentProductionId: take.contentProductionId,
      });
      const stoppedAt = new Date(Date.parse(take.startedAt) + take.durationMs).toISOString();
      repo.stopTake(open.id, { filePath: null, stoppedAt, durationMs: take.durationMs, seen: true });
      for (const mark of take.marks) {
        const at = new Date(Date.parse(take.startedAt) + mark.offsetMs).toISOString();
        repo.addMark({ takeId: open.id, label: mark.label, at, offsetMs: mark.offsetMs });
      }
    },
  };
}
export type RecorderHistory = ReturnType<typeof recorderHistory>;
