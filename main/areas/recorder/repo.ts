import { likeContaining } from '../../kernel/like-pattern.js';
import type { RecorderMark, RecorderTake } from '../../../shared/api/recorder.js';
import type { Db } from '../../kernel/db.js';
import { frameRateOf } from '../../../shared/frame-rates.js';

interface TakeRow {
  id: number;
  name: string;
  base_name: string;
  file_path: string | null;
  started_at: string;
  stopped_at: string | null;
  duration_ms: number | null;
  stop_seen: 0 | 1;
  reel: string;
  fps_numerator: number | null;
  fps_denominator: number | null;
  video_width: number | null;
  video_height: number | null;
  audio_channels: number | null;
  content_production_id: string | null;
}

/** What OBS records at (GetVideoSettings). */
export interface TakeVideo {
  fpsNumerator: number;
  fpsDenominator: number;
  width: number;
  height: number;
}

const REEL_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Two base-36 digits number the takes of a day. */
const TAKES_A_DAY = 36 * 36 - 1;

/** A take's reel (migration 027): YYMMDD of its start (UTC) and its number that day, `01`…`ZZ`. */
export function reelFor(startedAt: string, numberThatDay: number): string {
  const day = `${startedAt.slice(2, 4)}${startedAt.slice(5, 7)}${startedAt.slice(8, 10)}`;
  return day + REEL_DIGITS[Math.floor(numberThatDay / 36)]! + REEL_DIGITS[numberThatDay % 36]!;
}

interface MarkRow {
  id: number;
  take_id: number | null;
  label: string | null;
  at: string;
  offset_ms: number | null;
}

/** A take being recorded, as the recorder needs it to close it. */
export interface OpenTake {
  id: number;
  name: string;
  baseName: string;
  startedAt: string;
}

const toMark = (row: MarkRow): RecorderMark => ({
  id: row.id,
  label: row.label,
  at: row.at,
  takeId: row.take_id,
  offsetS: row.offset_ms === null ? null : row.offset_ms / 1000,
});

/** The recorder's takes and marks (migration 023). */
export function createRecorderRepo(db: Db) {
  const insertTake = db.prepare<[string, string, string | null, string, string, string | null]>(
    `INSERT INTO recorder_takes (name, base_name, file_path, started_at, reel, content_production_id)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const takesOfProduction = db.prepare<[string], TakeRow>(
    'SELECT * FROM recorder_takes WHERE content_production_id = ? ORDER BY id',
  );
  // Reels of a day sort as their numbers (fixed width, digits before letters).
  const lastReelOfDay = db.prepare<[string], { reel: string }>(
    "SELECT reel FROM recorder_takes WHERE reel GLOB ? || '[0-9A-Z][0-9A-Z]' ORDER BY reel DESC LIMIT 1",
  );
  const overflowReel = db.prepare<[], { next: number }>(
    'SELECT coalesce(max(id), 0) + 1 AS next FROM recorder_takes',
  );
  const setVideo = db.prepare<[number, number, number, number, number]>(
    'UPDATE recorder_takes SET fps_numerator = ?, fps_denominator = ?, video_width = ?, video_height = ? WHERE id = ?',
  );
  const setAudio = db.prepare<[number, number]>('UPDATE recorder_takes SET audio_channels = ? WHERE id = ?');
  const closeTake = db.prepare<[string | null, string, number | null, number, number]>(
    `UPDATE recorder_takes SET file_path = coalesce(?, file_path), stopped_at = ?, duration_ms = ?, stop_seen = ?
     WHERE id = ? AND stopped_at IS NULL`,
  );
  const setFilePath = db.prepare<[string | null, number]>(
    'UPDATE recorder_takes SET file_path = coalesce(?, file_path) WHERE id = ?',
  );
  const openTakes = db.prepare<[], TakeRow>(
    'SELECT * FROM recorder_takes WHERE stopped_at IS NULL ORDER BY id',
  );
  const nameUsed = db.prepare<[string], { one: 1 }>(
    'SELECT 1 AS one FROM recorder_takes WHERE name = ? LIMIT 1',
  );
  const newestTakes = db.prepare<[number], TakeRow>('SELECT * FROM recorder_takes ORDER BY id DESC LIMIT ?');
  const marksOfTakes = db.prepare<[number, number], MarkRow>(
    'SELECT * FROM recorder_marks WHERE take_id BETWEEN ? AND ? ORDER BY take_id, id',
  );
  const looseMarks = db.prepare<[number], MarkRow>(
    'SELECT * FROM recorder_marks WHERE take_id IS NULL ORDER BY id DESC LIMIT ?',
  );
  const insertMark = db.prepare<[number | null, string | null, string, number | null]>(
    'INSERT INTO recorder_marks (take_id, label, at, offset_ms) VALUES (?, ?, ?, ?)',
  );
  const named = db.prepare<[string, number], TakeRow>(
    "SELECT * FROM recorder_takes WHERE name LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT ?",
  );
  const markById = db.prepare<[number], MarkRow>('SELECT * FROM recorder_marks WHERE id = ?');
  const setMarkLabel = db.prepare<[string | null, number]>(
    'UPDATE recorder_marks SET label = ? WHERE id = ?',
  );
  const deleteMark = db.prepare<[number]>('DELETE FROM recorder_marks WHERE id = ?');
  const takeById = db.prepare<[number], TakeRow>('SELECT * FROM recorder_takes WHERE id = ?');
  const marksOfTake = db.prepare<[number], MarkRow>(
    'SELECT * FROM recorder_marks WHERE take_id = ? ORDER BY id',
  );
  const toTake = (row: TakeRow, marks: RecorderMark[]): RecorderTake => {
    const video =
      row.fps_numerator !== null && row.fps_denominator !== null
        ? {
            fpsNumerator: row.fps_numerator,
            fpsDenominator: row.fps_denominator,
            width: row.video_width ?? 0,
            height: row.video_height ?? 0,
          }
        : null;
    return {
      id: row.id,
      name: row.name,
      filePath: row.file_path,
      startedAt: row.started_at,
      stoppedAt: row.stopped_at,
      durationS: row.duration_ms === null ? null : row.duration_ms / 1000,
      stopSeen: row.stop_seen === 1,
      reel: row.reel,
      video,
      frameRate: video ? frameRateOf(video.fpsNumerator, video.fpsDenominator) : null,
      audioChannels: row.audio_channels,
      contentProductionId: row.content_production_id,
      marks,
    };
  };
  const nextReel = (startedAt: string): string => {
    const day = reelFor(startedAt, 0).slice(0, 6);
    const last = lastReelOfDay.get(day)?.reel;
    const number = last ? REEL_DIGITS.indexOf(last[6]!) * 36 + REEL_DIGITS.indexOf(last[7]!) + 1 : 1;
    return number <= TAKES_A_DAY
      ? reelFor(startedAt, number)
      : `X${String(overflowReel.get()!.next).padStart(7, '0')}`;
  };

  return {
    startTake(take: {
      name: string;
      baseName: string;
      filePath: string | null;
      startedAt: string;
      /** The production its name was given from; null or absent: not linked. */
      contentProductionId?: string | null;
    }): OpenTake {
      const id = Number(
        db.transaction(() =>
          insertTake.run(
            take.name,
            take.baseName,
            take.filePath,
            take.startedAt,
            nextReel(take.startedAt),
            take.contentProductionId ?? null,
          ),
        )().lastInsertRowid,
      );
      return { id, name: take.name, baseName: take.baseName, startedAt: take.startedAt };
    },
    stopTake(
      id: number,
      stop: { filePath: string | null; stoppedAt: string; durationMs: number | null; seen: boolean },
    ): boolean {
      const durationMs = stop.durationMs === null ? null : Math.max(0, Math.round(stop.durationMs));
      return closeTake.run(stop.filePath, stop.stoppedAt, durationMs, stop.seen ? 1 : 0, id).changes === 1;
    },
    /** The file OBS reports once it has finished it (STOPPED); null leaves the one known. */
    setFilePath(id: number, filePath: string | null): void {
      setFilePath.run(filePath, id);
    },
    /** Takes still recording by the table (normally at most one). */
    openTakes(): OpenTake[] {
      return openTakes
        .all()
        .map((row) => ({ id: row.id, name: row.name, baseName: row.base_name, startedAt: row.started_at }));
    },
    /** What OBS records at, read as the take started. */
    setVideo(id: number, video: TakeVideo): void {
      setVideo.run(video.fpsNumerator, video.fpsDenominator, video.width, video.height, id);
    },
    /** The audio channels of the take's file (0: no audio). */
    setAudioChannels(id: number, channels: number): void {
      setAudio.run(channels, id);
    },
    nameUsed(name: string): boolean {
      return nameUsed.get(name) !== undefined;
    },
    /** Newest first, each with its marks in order. */
    takes(limit: number): RecorderTake[] {
      const rows = newestTakes.all(limit);
      if (rows.length === 0) return [];
      const marks = new Map<number, RecorderMark[]>();
      for (const row of marksOfTakes.all(rows.at(-1)!.id, rows[0]!.id)) {
        const list = marks.get(row.take_id!) ?? [];
        list.push(toMark(row));
        marks.set(row.take_id!, list);
      }
      return rows.map((row) => toTake(row, marks.get(row.id) ?? []));
    },
    /** Takes whose name contains `text` (a space also matches `_`; ASCII case ignored), newest first, without marks. */
    named(text: string, limit: number): RecorderTake[] {
      return named.all(likeContaining(text, { spaceIsAnyOne: true }), limit).map((row) => toTake(row, []));
    },
    /** One take with its marks in order; null when there is no such take. */
    take(id: number): RecorderTake | null {
      const row = takeById.get(id);
      return row ? toTake(row, marksOfTake.all(id).map(toMark)) : null;
    },
    /** The takes named from one production, oldest first, each with its marks. */
    takesOf(contentProductionId: string): RecorderTake[] {
      return takesOfProduction
        .all(contentProductionId)
        .map((row) => toTake(row, marksOfTake.all(row.id).map(toMark)));
    },
    looseMarks(limit: number): RecorderMark[] {
      return looseMarks.all(limit).map(toMark);
    },
    addMark(mark: {
      takeId: number | null;
      label: string | null;
      at: string;
      offsetMs: number | null;
    }): RecorderMark {
      const id = Number(insertMark.run(mark.takeId, mark.label, mark.at, mark.offsetMs).lastInsertRowid);
      return toMark(markById.get(id)!);
    },
    /** Null: no such mark. */
    mark(id: number): RecorderMark | null {
      const row = markById.get(id);
      return row ? toMark(row) : null;
    },
    /** The mark as renamed; null: no such mark. */
    renameMark(id: number, label: string | null): RecorderMark | null {
      if (setMarkLabel.run(label, id).changes === 0) return null;
      return toMark(markById.get(id)!);
    },
    /** The mark deleted; null: no such mark. */
    deleteMark(id: number): RecorderMark | null {
      return db.transaction(() => {
        const row = markById.get(id);
        if (!row) return null;
        deleteMark.run(id);
        return toMark(row);
      })();
    },
  };
}
export type RecorderRepo = ReturnType<typeof createRecorderRepo>;
