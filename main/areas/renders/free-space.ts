import { statfs } from 'node:fs/promises';
import { renderSizes, type RenderFormat } from '../../../shared/api/renders.js';
import { AppError } from '../../kernel/app-error.js';

/** Space left on the disk of `dir` for this user; null when it cannot be read. */
export async function freeBytes(dir: string): Promise<number | null> {
  try {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/**
 * A generous guess of a render's size: H.264 at crf 20 stays under about 6 bits a pixel a second
 * on camera footage (12 Mbit/s at 1080×1920), AAC 160 kbit/s, and a quarter more for safety.
 */
export function neededBytes(durationS: number, formats: readonly RenderFormat[]): number {
  const bitsPerSecond = formats.reduce((sum, format) => {
    const { width, height } = renderSizes[format];
    return sum + width * height * 6 + 160_000;
  }, 0);
  return Math.ceil(((bitsPerSecond * durationS) / 8) * 1.25);
}

/** Kept free for the database and the log, whatever a render needs (DESIGN §7: a full disk is an error). */
export const KEEP_FREE_BYTES = 256 * 1024 * 1024;

const mb = (bytes: number) => Math.ceil(bytes / (1024 * 1024));

/** STORAGE_FULL before any work (DESIGN §7), saying how much is needed and how much there is. */
export function checkRoom(dir: string, needed: number, free: number | null): void {
  if (free === null || free - needed >= KEEP_FREE_BYTES) return;
  throw new AppError(
    'storage-full',
    'STORAGE_FULL',
    `not enough room to render: it needs about ${mb(needed)} MB in ${dir} (and the bridge keeps ${mb(KEEP_FREE_BYTES)} MB free for its database and log), ${mb(free)} MB free: delete older renders or free some space, then render again`,
    { retryAfterS: 30 },
  );
}
