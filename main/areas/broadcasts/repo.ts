import type { BroadcastRun } from '../../../shared/api/broadcasts.js';
import type { Db } from '../../kernel/db.js';

interface RunRow {
  streamhost_id: string;
  first_live_at: string;
  last_live_at: string;
  last_viewers: number;
  peak_viewers: number;
  viewer_ms: number;
  sampled_ms: number;
  samples: number;
  ended_at: string | null;
}

/**
 * A sample stands for the viewers until the next one, but for no longer than this: a bridge that
 * was away does not stretch its last reading over the hours it missed.
 */
export const SAMPLE_HOLDS_MS = 60_000;

const held = (from: string, to: Date) =>
  Math.min(SAMPLE_HOLDS_MS, Math.max(0, to.getTime() - Date.parse(from)));

const toRun = (row: RunRow): BroadcastRun => ({
  firstLiveAt: row.first_live_at,
  lastLiveAt: row.last_live_at,
  endedAt: row.ended_at,
  peakViewers: row.peak_viewers,
  averageViewers: row.sampled_ms > 0 ? Math.round(row.viewer_ms / row.sampled_ms) : row.last_viewers,
  samples: row.samples,
});

/** The viewers of each broadcast while the bridge read it live, and when it saw it end (migration 034). */
export function createBroadcastRunsRepo(db: Db) {
  const byId = db.prepare<[string], RunRow>('SELECT * FROM broadcast_runs WHERE streamhost_id = ?');
  const all = db.prepare<[], RunRow>('SELECT * FROM broadcast_runs');
  const insert = db.prepare<[string, string, string, number, number]>(
    `INSERT INTO broadcast_runs (streamhost_id, first_live_at, last_live_at, last_viewers, peak_viewers, samples)
     VALUES (?, ?, ?, ?, ?, 1)`,
  );
  const sample = db.prepare<[number, number, string, number, number, string]>(
    `UPDATE broadcast_runs SET viewer_ms = viewer_ms + last_viewers * ?, sampled_ms = sampled_ms + ?,
       last_live_at = ?, last_viewers = ?, peak_viewers = max(peak_viewers, ?), samples = samples + 1
     WHERE streamhost_id = ? AND ended_at IS NULL`,
  );
  const end = db.prepare<[number, number, string, string]>(
    `UPDATE broadcast_runs SET viewer_ms = viewer_ms + last_viewers * ?, sampled_ms = sampled_ms + ?, ended_at = ?
     WHERE streamhost_id = ? AND ended_at IS NULL`,
  );

  return {
    /** A read of the broadcast live, with its viewers. */
    sampleLive(streamhostId: string, viewers: number, at: Date): void {
      db.transaction(() => {
        const row = byId.get(streamhostId);
        const iso = at.toISOString();
        if (!row) insert.run(streamhostId, iso, iso, viewers, viewers);
        else {
          const ms = held(row.last_live_at, at);
          sample.run(ms, ms, iso, viewers, viewers, streamhostId);
        }
      })();
    },
    /** The first read of it finished: the last sample holds until now (at most SAMPLE_HOLDS_MS). */
    ended(streamhostId: string, at: Date): void {
      db.transaction(() => {
        const row = byId.get(streamhostId);
        if (!row || row.ended_at !== null) return;
        const ms = held(row.last_live_at, at);
        end.run(ms, ms, at.toISOString(), streamhostId);
      })();
    },
    /** Every broadcast the bridge saw live, by its host id. */
    runs(): Map<string, BroadcastRun> {
      return new Map(all.all().map((row) => [row.streamhost_id, toRun(row)]));
    },
  };
}
export type BroadcastRunsRepo = ReturnType<typeof createBroadcastRunsRepo>;
