import { execFile } from 'node:child_process';

/** How the recorder learns a take's audio: the channels of its file's first audio track, or null. */
export type AudioProbe = (filePath: string) => Promise<number | null>;

const PROBE_TIMEOUT_MS = 10_000;

/**
 * ffprobe's count of the channels of the file's first audio track (OBS's track 1, the mix): 0 when
 * the file has no audio, null when the file cannot be read here (OBS on another machine) or there
 * is no ffprobe (`ffprobe` null: kernel/media-tools.ts found none).
 */
export const ffprobeAudioChannels =
  (ffprobe: string | null): AudioProbe =>
  (filePath) =>
    new Promise((resolve) => {
      if (ffprobe === null) return resolve(null);
      execFile(
        ffprobe,
        [
          '-v',
          'error',
          '-select_streams',
          'a:0',
          '-show_entries',
          'stream=channels',
          '-of',
          'csv=p=0',
          filePath,
        ],
        { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' },
        (error, stdout) => {
          if (error) return resolve(null);
          const channels = Number.parseInt(stdout.trim(), 10);
          resolve(stdout.trim() === '' ? 0 : Number.isInteger(channels) && channels >= 0 ? channels : null);
        },
      );
    });
