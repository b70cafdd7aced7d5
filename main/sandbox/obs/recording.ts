/**
 * The simulated OBS's record output: active, paused, and `outputDuration` as OBS reports it (the
 * time recorded, pauses excluded, less the encoder's delay: OBS counts a frame once the encoder
 * hands it to the muxer, measured 167 ms behind the file with x264 ultrafast, ~600 ms with
 * veryfast), on a clock the caller gives, so tests decide how long a take lasts without waiting.
 */
export class RecordOutput {
  private startedAt: number | null = null;
  private pausedAt: number | null = null;
  private pausedMs = 0;
  path: string | null = null;

  constructor(
    private readonly now: () => Date,
    private readonly encoderDelayMs: number,
  ) {}

  get active(): boolean {
    return this.startedAt !== null;
  }

  get paused(): boolean {
    return this.pausedAt !== null;
  }

  start(path: string): void {
    this.startedAt = this.now().getTime();
    this.pausedAt = null;
    this.pausedMs = 0;
    this.path = path;
  }

  pause(): void {
    this.pausedAt = this.now().getTime();
  }

  resume(): void {
    if (this.pausedAt !== null) this.pausedMs += this.now().getTime() - this.pausedAt;
    this.pausedAt = null;
  }

  /** OBS's outputDuration: milliseconds recorded, pauses excluded, behind the file by the encoder's delay. */
  durationMs(): number {
    return Math.max(0, this.fileMs() - this.encoderDelayMs);
  }

  /** How long the file is: milliseconds recorded, pauses excluded. */
  fileMs(): number {
    if (this.startedAt === null) return 0;
    const until = this.pausedAt ?? this.now().getTime();
    return until - this.startedAt - this.pausedMs;
  }

  /** Ends the take; returns the file it wrote. */
  stop(): string | null {
    const path = this.path;
    this.startedAt = null;
    this.pausedAt = null;
    this.pausedMs = 0;
    return path;
  }
}

/** `HH:MM:SS.mmm`, OBS's outputTimecode. */
export function timecode(ms: number): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${pad(ms % 1000, 3)}`;
}
