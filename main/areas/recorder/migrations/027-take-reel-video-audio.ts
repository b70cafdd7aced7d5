import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issues #38.5 and #39: what an editor needs of a take. `reel`: 8 letters and digits, unique among
 * the takes (an EDL conform knows a take by reel and timecode only; every take of a day had the same
 * reel), made once from the day it started (UTC, YYMMDD) and its number that day in base 36, `01`…
 * `ZZ` (past 1295 takes a day, `X` and its id). The frame rate and picture size OBS records at
 * (GetVideoSettings as the take starts), and the audio channels of the file (ffprobe, when the bridge
 * can read it): null when not known.
 */
const DIGITS = `'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'`;

export const takeReelVideoAudio: Migration = {
  version: 27,
  name: 'recorder-take-reel-video-audio',
  sql: `
    ALTER TABLE recorder_takes ADD COLUMN reel TEXT;
    ALTER TABLE recorder_takes ADD COLUMN fps_numerator INTEGER;
    ALTER TABLE recorder_takes ADD COLUMN fps_denominator INTEGER;
    ALTER TABLE recorder_takes ADD COLUMN video_width INTEGER;
    ALTER TABLE recorder_takes ADD COLUMN video_height INTEGER;
    ALTER TABLE recorder_takes ADD COLUMN audio_channels INTEGER;
    UPDATE recorder_takes SET reel = (
      SELECT CASE WHEN day.n > 1295 THEN 'X' || printf('%07d', day.id)
        ELSE substr(day.started_at, 3, 2) || substr(day.started_at, 6, 2) || substr(day.started_at, 9, 2)
          || substr(${DIGITS}, day.n / 36 + 1, 1) || substr(${DIGITS}, day.n % 36 + 1, 1) END
      FROM (SELECT id, started_at,
              ROW_NUMBER() OVER (PARTITION BY substr(started_at, 1, 10) ORDER BY id) AS n
            FROM recorder_takes) AS day
      WHERE day.id = recorder_takes.id);
    CREATE UNIQUE INDEX recorder_takes_by_reel ON recorder_takes (reel);
  `,
};
