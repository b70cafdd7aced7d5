/** One block of FFmpeg's `-progress` output: how much of the output is written, and how fast. */
export interface ProgressUpdate {
  /** Seconds of output written. */
  outS: number;
  /** Times real time (`speed=0.71x`); null when FFmpeg does not know yet. */
  speed: number | null;
  /** The last block (`progress=end`). */
  end: boolean;
}

/** A line longer than this is no progress line: it is dropped, so memory stays bounded whatever comes. */
const MAX_LINE = 4096;

/**
 * Reads `-progress pipe:1` as it arrives: `key=value` lines, each block closed by
 * `progress=continue` (or `end`). FFmpeg 5 writes `out_time_us`; older builds `out_time_ms` (in
 * microseconds too, despite its name) and `out_time`. Only the current block is held.
 */
export class ProgressReader {
  private partial = '';
  private block = new Map<string, string>();

  push(chunk: string): ProgressUpdate[] {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    if (this.partial.length > MAX_LINE) this.partial = '';
    const updates: ProgressUpdate[] = [];
    for (const line of lines) {
      const equals = line.indexOf('=');
      if (equals < 0) continue;
      const key = line.slice(0, equals).trim();
      const value = line.slice(equals + 1).trim();
      if (key !== 'progress') {
        this.block.set(key, value);
        continue;
      }
      const update = this.updateOf(value === 'end');
      this.block = new Map();
      if (update) updates.push(update);
    }
    return updates;
  }

  /** Characters held of a line not yet complete. */
  buffered(): number {
    return this.partial.length;
  }

  private updateOf(end: boolean): ProgressUpdate | null {
    const outS = this.outSeconds();
    if (outS === null) return null;
    const speed = Number.parseFloat(this.block.get('speed') ?? '');
    return { outS, speed: Number.isFinite(speed) ? speed : null, end };
  }

  private outSeconds(): number | null {
    for (const key of ['out_time_us', 'out_time_ms']) {
      const micro = Number(this.block.get(key));
      if (this.block.has(key) && Number.isFinite(micro)) return micro / 1e6;
    }
    const clock = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(this.block.get('out_time') ?? '');
    return clock ? Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3]) : null;
  }
}

/** Below this share done, the time left is a guess too wild to show. */
const MIN_FRACTION = 0.01;

/** Seconds left at the speed so far: the time spent times what is left over what is done. */
export function secondsLeft(fraction: number, elapsedMs: number): number | null {
  if (fraction >= 1) return 0;
  if (fraction < MIN_FRACTION) return null;
  return Math.round(((elapsedMs / 1000) * (1 - fraction)) / fraction);
}
