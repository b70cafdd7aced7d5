import { spawn } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import { ProgressReader, type ProgressUpdate } from './progress.js';

/** How an FFmpeg run ended. */
export interface FfmpegEnd {
  /** Exit code 0. */
  ok: boolean;
  /** Stopped by the signal (a cancel, the bridge stopping). */
  aborted: boolean;
  /** The end of what it wrote on stderr (its summary, its last error). */
  stderr: string;
  code: number | null;
}

/** Enough of stderr for ebur128's summary and the last error lines; no more is held, however long it runs. */
const STDERR_TAIL = 16 * 1024;
/** FFmpeg gets this long to end after SIGTERM before it is killed. */
const KILL_AFTER_MS = 3_000;

/**
 * Runs FFmpeg as a child process below the bridge's priority (renders never take the CPU from
 * due posts and webhooks), reading `-progress` from its stdout as it comes. Aborting `signal`
 * stops it. Memory stays flat: progress is read block by block, stderr kept as a bounded tail.
 */
export function runFfmpeg(
  ffmpeg: string,
  args: readonly string[],
  options: { signal: AbortSignal; onProgress?: (update: ProgressUpdate) => void },
): Promise<FfmpegEnd> {
  return new Promise((resolve) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, constants.priority.PRIORITY_BELOW_NORMAL);
      } catch {
        // Not allowed here (a container's limits): it runs at the bridge's priority.
      }
    }
    const progress = new ProgressReader();
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const update of progress.push(chunk)) options.onProgress?.(update);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    let killer: NodeJS.Timeout | undefined;
    const stop = () => {
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    };
    if (options.signal.aborted) stop();
    else options.signal.addEventListener('abort', stop, { once: true });
    let spawnError: Error | null = null;
    child.once('error', (error) => (spawnError = error));
    child.once('close', (code) => {
      clearTimeout(killer);
      options.signal.removeEventListener('abort', stop);
      resolve({
        ok: code === 0 && spawnError === null,
        aborted: options.signal.aborted,
        stderr: spawnError ? `${stderr}\n${spawnError.message}` : stderr,
        code,
      });
    });
  });
}

/** The last lines of FFmpeg's stderr that say something, for a failure's words. */
export function lastWords(stderr: string, lines = 2): string {
  const said = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('Fontconfig'));
  return said.slice(-lines).join(' · ').slice(0, 400) || 'no message';
}
