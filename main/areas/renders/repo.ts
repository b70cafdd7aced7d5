import type {
  ReadyMedia,
  ReadyMediaKind,
  ReadyState,
  RenderFormat,
  RenderState,
} from '../../../shared/api/renders.js';
import type { Caption } from '../../../shared/caption-rules.js';
import type { Db } from '../../kernel/db.js';

/** A file a render wrote, as read back. */
export interface WrittenFile {
  format: RenderFormat;
  bytes: number;
  width: number;
  height: number;
  durationS: number;
}

export interface RenderLoudness {
  measuredLufs: number | null;
  gainDb: number;
  targetLufs: number;
}

/** Make ready as it stands (migration 030); its media are rows of their own. */
export interface StoredReady {
  state: ReadyState;
  clipId: string;
  error: string | null;
  progress: { done: number; total: number } | null;
  askedAt: string;
  readyAt: string | null;
  /**
   * While uploading: the files uploaded and checked so far, so a run cut short by a restart goes on
   * from there instead of sending them again. Gone once it ends (the media are rows of their own).
   */
  uploaded?: ReadyMedia[];
}

/** A render as asked for and as it went (migrations 029, 030). JSON parsed here, once. */
export interface StoredRender {
  id: string;
  analysisId: string;
  n: number;
  take: { id: number; name: string; filePath: string };
  startTime: number;
  endTime: number;
  formats: RenderFormat[];
  /** Each format's cues from the clip's in; null: no captions asked for. */
  captions: Partial<Record<RenderFormat, Caption[]>> | null;
  cropX: number;
  state: RenderState;
  notes: string[];
  error: string | null;
  restarts: number;
  loudness: RenderLoudness | null;
  files: WrittenFile[];
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  expiresAt: string | null;
  ready: StoredReady | null;
}

interface RenderRow {
  id: string;
  analysis_id: string;
  clip_number: number;
  take_json: string;
  start_time: number;
  end_time: number;
  formats_json: string;
  captions_json: string | null;
  crop_x: number;
  state: RenderState;
  notes_json: string;
  error: string | null;
  restarts: number;
  loudness_json: string | null;
  files_json: string;
  bytes: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
  ready_json: string | null;
}

interface MediaRow {
  render_id: string;
  kind: ReadyMediaKind;
  access_url: string;
  bytes: number;
  uploaded_at: string;
  expires_at: string;
}

function fromRow(row: RenderRow): StoredRender {
  return {
    id: row.id,
    analysisId: row.analysis_id,
    n: row.clip_number,
    take: JSON.parse(row.take_json) as StoredRender['take'],
    startTime: row.start_time,
    endTime: row.end_time,
    formats: JSON.parse(row.formats_json) as RenderFormat[],
    captions: row.captions_json === null ? null : (JSON.parse(row.captions_json) as StoredRender['captions']),
    cropX: row.crop_x,
    state: row.state,
    notes: JSON.parse(row.notes_json) as string[],
    error: row.error,
    restarts: row.restarts,
    loudness: row.loudness_json === null ? null : (JSON.parse(row.loudness_json) as RenderLoudness),
    files: JSON.parse(row.files_json) as WrittenFile[],
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    expiresAt: row.expires_at,
    ready: row.ready_json === null ? null : (JSON.parse(row.ready_json) as StoredReady),
  };
}

const mediaFromRow = (row: MediaRow): ReadyMedia => ({
  kind: row.kind,
  accessUrl: row.access_url,
  bytes: row.bytes,
  uploadedAt: row.uploaded_at,
  expiresAt: row.expires_at,
});

const bytesOf = (files: readonly WrittenFile[]) => files.reduce((sum, file) => sum + file.bytes, 0);

/** The renders table (migration 029). */
export function createRendersRepo(db: Db) {
  const insert = db.prepare<
    [string, string, number, string, number, number, string, string | null, number, string]
  >(
    `INSERT INTO renders (id, analysis_id, clip_number, take_json, start_time, end_time, formats_json,
       captions_json, crop_x, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)`,
  );
  const byId = db.prepare<[string], RenderRow>('SELECT * FROM renders WHERE id = ?');
  const newest = db.prepare<[number], RenderRow>('SELECT * FROM renders ORDER BY rowid DESC LIMIT ?');
  const newestOfAnalysis = db.prepare<[string, number], RenderRow>(
    'SELECT * FROM renders WHERE analysis_id = ? ORDER BY rowid DESC LIMIT ?',
  );
  const newestOfClip = db.prepare<[string, number, number], RenderRow>(
    'SELECT * FROM renders WHERE analysis_id = ? AND clip_number = ? ORDER BY rowid DESC LIMIT ?',
  );
  const start = db.prepare<[string, number, string, string]>(
    `UPDATE renders SET state = 'rendering', started_at = ?, restarts = ?, notes_json = ?
     WHERE id = ? AND state IN ('queued', 'rendering')`,
  );
  const finish = db.prepare<[string, string, string | null, number, string, string, string]>(
    `UPDATE renders SET state = 'done', notes_json = ?, files_json = ?, loudness_json = ?, bytes = ?,
       error = NULL, expires_at = ?, finished_at = ? WHERE id = ? AND state = 'rendering'`,
  );
  const end = db.prepare<[RenderState, string | null, string, string]>(
    `UPDATE renders SET state = ?, error = ?, finished_at = ? WHERE id = ? AND state IN ('queued', 'rendering')`,
  );
  const setFiles = db.prepare<[string, number, string]>(
    'UPDATE renders SET files_json = ?, bytes = ? WHERE id = ?',
  );
  const remove = db.prepare<[string]>('DELETE FROM renders WHERE id = ?');
  const removeMedia = db.prepare<[string]>('DELETE FROM render_media WHERE render_id = ?');
  const setReady = db.prepare<[string, string]>('UPDATE renders SET ready_json = ? WHERE id = ?');
  const mediaOf = db.prepare<[string], MediaRow>(
    'SELECT * FROM render_media WHERE render_id = ? ORDER BY rowid',
  );
  const mediaByUrl = db.prepare<[string], MediaRow>(
    'SELECT * FROM render_media WHERE access_url = ? LIMIT 1',
  );
  const putMedia = db.prepare<[string, string, string, number, string, string]>(
    `INSERT INTO render_media (render_id, kind, access_url, bytes, uploaded_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (render_id, kind) DO UPDATE SET access_url = excluded.access_url, bytes = excluded.bytes,
       uploaded_at = excluded.uploaded_at, expires_at = excluded.expires_at`,
  );
  const expired = db.prepare<[string], RenderRow>(
    'SELECT * FROM renders WHERE expires_at IS NOT NULL AND expires_at <= ?',
  );
  const endedBefore = db.prepare<[string], { id: string }>(
    "SELECT id FROM renders WHERE state IN ('failed', 'cancelled') AND created_at <= ?",
  );
  const usage = db.prepare<[], { bytes: number | null; renders: number }>(
    'SELECT SUM(bytes) AS bytes, COUNT(*) AS renders FROM renders WHERE bytes > 0',
  );

  return {
    /** A new render, queued. */
    insert(
      render: Omit<
        StoredRender,
        | 'state'
        | 'notes'
        | 'error'
        | 'restarts'
        | 'loudness'
        | 'ready'
        | 'files'
        | 'startedAt'
        | 'finishedAt'
        | 'expiresAt'
      >,
    ): void {
      insert.run(
        render.id,
        render.analysisId,
        render.n,
        JSON.stringify(render.take),
        render.startTime,
        render.endTime,
        JSON.stringify(render.formats),
        render.captions === null ? null : JSON.stringify(render.captions),
        render.cropX,
        render.createdAt,
      );
    },
    get(id: string): StoredRender | null {
      const row = byId.get(id);
      return row ? fromRow(row) : null;
    },
    /** Newest first: all, of one analysis, or of one of its suggestions. */
    list(filter: { analysisId?: string | undefined; n?: number | undefined; limit: number }): StoredRender[] {
      const rows =
        filter.analysisId === undefined
          ? newest.all(filter.limit)
          : filter.n === undefined
            ? newestOfAnalysis.all(filter.analysisId, filter.limit)
            : newestOfClip.all(filter.analysisId, filter.n, filter.limit);
      return rows.map(fromRow);
    },
    /** Now rendering (again, after a restart: `restarts` and its note say so). False: it ended meanwhile (cancelled). */
    start(id: string, at: string, restarts: number, notes: readonly string[]): boolean {
      return start.run(at, restarts, JSON.stringify(notes), id).changes === 1;
    },
    finish(
      id: string,
      done: {
        notes: readonly string[];
        files: readonly WrittenFile[];
        loudness: RenderLoudness | null;
        expiresAt: string;
        at: string;
      },
    ): boolean {
      return (
        finish.run(
          JSON.stringify(done.notes),
          JSON.stringify(done.files),
          done.loudness === null ? null : JSON.stringify(done.loudness),
          bytesOf(done.files),
          done.expiresAt,
          done.at,
          id,
        ).changes === 1
      );
    },
    /** Failed or cancelled, if it had not ended yet; false when it had. */
    end(id: string, state: 'failed' | 'cancelled', error: string | null, at: string): boolean {
      return end.run(state, error, at, id).changes === 1;
    },
    /** What is left of a render whose files a newer render of its clip replaced. */
    setFiles(id: string, files: readonly WrittenFile[]): void {
      setFiles.run(JSON.stringify(files), bytesOf(files), id);
    },
    remove(id: string): void {
      removeMedia.run(id);
      remove.run(id);
    },
    setReady(id: string, ready: StoredReady): void {
      setReady.run(JSON.stringify(ready), id);
    },
    /** The media a make ready put in the provider's store, in the order uploaded. */
    media(id: string): ReadyMedia[] {
      return mediaOf.all(id).map(mediaFromRow);
    },
    putMedia(id: string, media: ReadyMedia): void {
      putMedia.run(id, media.kind, media.accessUrl, media.bytes, media.uploadedAt, media.expiresAt);
    },
    /** Which render's media an access URL serves, if any of ours. */
    mediaByUrl(accessUrl: string): { renderId: string; media: ReadyMedia } | null {
      const row = mediaByUrl.get(accessUrl);
      return row ? { renderId: row.render_id, media: mediaFromRow(row) } : null;
    },
    /** Done renders whose files are past their keeping. */
    expired(now: string): StoredRender[] {
      return expired.all(now).map(fromRow);
    },
    /** Failed and cancelled renders asked for before `before`: only their rows are left. */
    endedBefore(before: string): string[] {
      return endedBefore.all(before).map((row) => row.id);
    },
    usage(): { bytes: number; renders: number } {
      const row = usage.get()!;
      return { bytes: row.bytes ?? 0, renders: row.renders };
    },
  };
}
export type RendersRepo = ReturnType<typeof createRendersRepo>;
