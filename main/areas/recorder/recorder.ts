import type { RecorderFilenameSet, RecorderMark, RecorderStatus } from '../../../shared/api/recorder.js';
import { checkRecorderFilename, nextFreeTakeName } from '../../../shared/recorder-filename.js';
import { obsNameWords } from '../../../shared/recorder-status.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { AppError } from '../../kernel/app-error.js';
import type { Clock } from '../../kernel/clock.js';
import { obsWords, type ObsClient, type RecordStateChanged } from '../../peers/obs.js';
import type { RecorderState } from './recorder-state.js';
import type { AudioProbe } from './audio-channels.js';
import { recordFolder, type RecordFolder } from './record-folder.js';
import type { OpenTake, RecorderRepo } from './repo.js';

const OUTPUT = 'Output';
const FILENAME = 'FilenameFormatting';

interface Recording {
  take: OpenTake;
  /** When the STARTED event arrived (interval clock): the file's first frame, within a frame. */
  startedMs: number;
  paused: boolean;
  /** When the current pause started (interval clock). */
  pausedAt: number | null;
  /** Paused time of the take so far (what OBS's outputDuration leaves out). */
  pausedMs: number;
}

export interface RecorderDeps {
  obs: ObsClient | null;
  /** The recorder is the sandbox's simulated OBS. */
  simulated: boolean;
  state: RecorderState;
  repo: RecorderRepo;
  activity: ActivityLog;
  now: Clock;
  /** Milliseconds for a take's length and a mark's position (monotonic in production). */
  elapsedMs: () => number;
  /** The take's audio, read from its file once it stops. */
  probeAudio: AudioProbe;
}

/**
 * The bridge as the source of the recorder's filename (DESIGN §5.5, §6.7): a name set here is
 * pushed to OBS and read back; every (re)connection turns overwriting off, pushes the held name
 * or reads OBS's own, and picks up a recording in progress; each recording is a take, and the
 * name of a finished take is never given to the next one (`_T02`, `_T03`…), nor the name of a file
 * already in OBS's record folder when the bridge can see it. OBS's profile is written only when a
 * value changes: OBS rewrites the file in place, and a kill during the write empties it.
 *
 * Times, as measured on OBS 29 (issue #38.2): the file starts within a frame of the STARTED
 * event's arrival and ends at the StopRecord call (STOPPING arrives ~40 ms later; STOPPED only once
 * the encoder has flushed, 0.2–1.7 s by preset and load). OBS's outputDuration lags the file by
 * that same encoder delay, so a mark's position is the time since STARTED, pauses excluded.
 */
export class Recorder {
  private recording: Recording | null = null;
  /** A take past STOPPING whose STOPPED (and file path) has not come yet. */
  private finishing: OpenTake | null = null;
  /** The (re)connection's work is done: the name OBS will use is known (or could not be read). */
  private ready = false;
  /** OBS's record folder, when OBS runs on this machine and the folder is readable. */
  private folder: RecordFolder | null = null;
  /** OBS work runs one step at a time: a read-back must answer for the name just pushed. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: RecorderDeps) {
    const { obs } = deps;
    if (!obs) return;
    obs.onConnected(() => this.serial(() => this.connected()));
    obs.onDisconnected((words) => {
      this.ready = false;
      deps.activity.record('recorder.disconnected', 'warn', `lost the connection to OBS: ${words}`, {
        error: words,
      });
    });
    // Timed as it arrives, not when the queue gets to it: a take and its marks are measured from it.
    obs.onRecordState((event) => {
      const arrived = { at: deps.now(), elapsed: deps.elapsedMs() };
      return this.serial(() => this.recordStateChanged(event, arrived));
    });
  }

  /** Holds the name, and with a recorder applies it; answers once OBS read it back (or could not). */
  async setFilename(
    requested: string,
    contentProductionId: string | null = null,
  ): Promise<Omit<RecorderFilenameSet, 'success'>> {
    const { obs, state, now } = this.deps;
    const check = checkRecorderFilename(requested, now(), { recorder: obs !== null });
    if (!check.ok) {
      throw AppError.validation(`filename: ${check.rule}`, {
        field: 'filename',
        rule: check.rule,
        suggestion: check.suggestion,
      });
    }
    const filename = obs ? nextFreeTakeName(requested, (name) => this.used(name)) : requested;
    const setAt = now().toISOString();
    state.hold(filename, requested, setAt, obs ? 'pending' : 'held', contentProductionId);
    if (obs?.connected) await this.serial(() => this.apply());
    this.recordOutcome();
    const status = state.status();
    return {
      ...status,
      filename: status.filename ?? filename,
      requested: status.requested ?? requested,
      setAt: status.setAt ?? setAt,
    };
  }

  filename(): RecorderStatus['filename'] {
    return this.deps.state.status();
  }

  status(): Omit<RecorderStatus, 'success'> {
    const { obs, simulated, state } = this.deps;
    const connection = obs?.status();
    const recording = this.recording;
    return {
      connection: {
        configured: obs !== null,
        simulated,
        url: obs?.url ?? null,
        connected: (connection?.connected ?? false) && this.ready,
        since: connection?.since ?? null,
        lastError: connection?.lastError ?? null,
        nextAttemptAt: connection?.nextAttemptAt ?? null,
      },
      recording: {
        active: recording !== null,
        paused: recording?.paused ?? false,
        since: recording?.take.startedAt ?? null,
        takeId: recording?.take.id ?? null,
        takeName: recording?.take.name ?? null,
      },
      filename: state.status(),
    };
  }

  /**
   * A mark at the take's position: the time since STARTED, pauses excluded (OBS's outputDuration
   * lags the file by the encoder's delay), or at the wall clock alone.
   */
  async mark(
    label: string | null,
  ): Promise<{ mark: RecorderMark; takeName: string | null; note: string | null }> {
    const { obs, repo, now, activity } = this.deps;
    const at = now().toISOString();
    let note: string;
    const recording = this.recording;
    if (!obs) note = 'no recorder is configured: the mark keeps its wall-clock time and belongs to no take';
    else if (!obs.connected)
      note = 'OBS is not connected: the mark keeps its wall-clock time and belongs to no take';
    else if (recording) {
      const { take } = recording;
      const offsetMs = recordedMs(recording, this.deps.elapsedMs());
      const mark = repo.addMark({ takeId: take.id, label, at, offsetMs });
      activity.record(
        'recorder.mark',
        'info',
        `mark at ${(offsetMs / 1000).toFixed(1)} s of take "${take.name}"${label ? `: ${label}` : ''}`,
        { markId: mark.id, takeId: take.id },
      );
      return { mark, takeName: take.name, note: null };
    } else note = 'no take in progress: the mark keeps its wall-clock time and belongs to no take';
    const mark = repo.addMark({ takeId: null, label, at, offsetMs: null });
    activity.record('recorder.mark', 'info', `mark with no take${label ? `: ${label}` : ''}`, {
      markId: mark.id,
      takeId: null,
    });
    return { mark, takeName: null, note };
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** A name a take used, or whose file is in OBS's record folder. */
  private used(name: string): boolean {
    return this.deps.repo.nameUsed(name) || (this.folder?.has(name) ?? false);
  }

  /**
   * Pushes the held name (when OBS does not hold it already) and reads it back: applied when OBS
   * holds it, failed with OBS's words.
   */
  private async apply(): Promise<void> {
    const { obs, state } = this.deps;
    const held = state.current;
    if (!obs || !held) return;
    try {
      const before = await obs.getProfileParameter(OUTPUT, FILENAME);
      if (before !== held.filename) await obs.setProfileParameter(OUTPUT, FILENAME, held.filename);
      const back = before === held.filename ? before : await obs.getProfileParameter(OUTPUT, FILENAME);
      state.sawObs(back);
      if (state.current !== held) return; // a newer name was set meanwhile: its own apply decides
      if (back === held.filename) state.mark('applied');
      else
        state.mark(
          'failed',
          `OBS holds ${JSON.stringify(back)} after being given ${JSON.stringify(held.filename)}`,
        );
    } catch (error) {
      if (state.current !== held) return;
      if (obs.connected) state.mark('failed', obsWords(error));
      else state.mark('pending');
    }
  }

  private recordOutcome(): void {
    const status = this.deps.state.status();
    if (status.filename === null || status.state === null) return;
    const level = status.state === 'failed' ? 'warn' : 'info';
    const words: Record<NonNullable<typeof status.state>, string> = {
      applied: `next recording: ${status.filename} (OBS holds it)`,
      pending: `next recording: ${status.filename} (applied when OBS connects)`,
      failed: `next recording: ${status.filename}, but OBS did not take it: ${status.failure}`,
      held: `next recording: ${status.filename}`,
    };
    this.deps.activity.record('recorder.filename', level, words[status.state], {
      filename: status.filename,
      state: status.state,
    });
  }

  private async connected(): Promise<void> {
    const { obs, state, repo, now, activity } = this.deps;
    if (!obs) return;
    const problems: string[] = [];
    try {
      // Never overwrite a file (DESIGN §6.7): OBS then adds " (2)" to a name it finds taken.
      if ((await obs.getProfileParameter(OUTPUT, 'OverwriteIfExists')) !== 'false')
        await obs.setProfileParameter(OUTPUT, 'OverwriteIfExists', 'false');
    } catch (error) {
      problems.push(`could not turn off OverwriteIfExists: ${obsWords(error)}`);
    }
    try {
      this.folder = recordFolder(obs.url, await obs.getRecordDirectory());
    } catch {
      this.folder = null; // OBS will not say: names are checked against the takes only
    }
    const held = state.current;
    if (held && this.used(held.filename)) {
      // Held while OBS was away, and its file is there by now (yesterday's, another bridge's).
      state.hold(
        nextFreeTakeName(held.requested, (name) => this.used(name)),
        held.requested,
        held.setAt,
        'pending',
      );
    }
    if (state.current) await this.apply();
    else {
      try {
        state.sawObs(await obs.getProfileParameter(OUTPUT, FILENAME));
      } catch (error) {
        problems.push(`could not read the filename OBS will use: ${obsWords(error)}`);
      }
    }
    try {
      const status = await obs.getRecordStatus();
      const open = repo.openTakes();
      const at = now().getTime();
      if (status.outputActive) {
        let take = open.at(-1);
        if (!take) {
          take = repo.startTake({
            name: state.obs ?? 'unknown',
            baseName: state.obs ?? 'unknown',
            filePath: null,
            startedAt: new Date(at - status.outputDuration).toISOString(),
          });
          await this.readVideo(take.id);
        }
        const pausedMs = Math.max(0, at - Date.parse(take.startedAt) - status.outputDuration);
        const elapsed = this.deps.elapsedMs();
        this.recording = {
          take,
          startedMs: elapsed - (at - Date.parse(take.startedAt)),
          paused: status.outputPaused,
          pausedAt: status.outputPaused ? elapsed : null,
          pausedMs,
        };
      } else {
        // Takes that stopped while the bridge was away: their stop is known only as "by now".
        for (const take of open) {
          repo.stopTake(take.id, {
            filePath: null,
            stoppedAt: new Date(at).toISOString(),
            durationMs: null,
            seen: false,
          });
        }
        this.recording = null;
        if (open.length > 0) await this.freshName();
      }
    } catch (error) {
      problems.push(`could not read the recording status: ${obsWords(error)}`);
    }
    this.ready = true;
    const after = state.status();
    activity.record(
      'recorder.connected',
      problems.length > 0 ? 'warn' : 'info',
      `connected to OBS at ${obs.url}; next recording: ${after.obsFilename === null ? 'unknown' : obsNameWords(after.obsFilename, now())}${problems.length > 0 ? ` (${problems.join('; ')})` : ''}`,
      { obsFilename: after.obsFilename, state: after.state },
    );
  }

  private async recordStateChanged(
    event: RecordStateChanged,
    { at, elapsed }: { at: Date; elapsed: number },
  ): Promise<void> {
    const { repo, state, activity, obs } = this.deps;
    switch (event.outputState) {
      case 'OBS_WEBSOCKET_OUTPUT_STARTED': {
        if (this.recording) return;
        let name = state.obs;
        try {
          name = (await obs?.getProfileParameter(OUTPUT, FILENAME)) ?? name;
          state.sawObs(name);
        } catch {
          // the name last read back stands
        }
        const held = state.current;
        const takeName = name ?? held?.filename ?? 'unknown';
        const asHeld = held !== null && held.filename === takeName;
        const take = repo.startTake({
          name: takeName,
          baseName: asHeld ? held.requested : takeName,
          filePath: event.outputPath ?? null,
          startedAt: at.toISOString(),
          contentProductionId: asHeld ? held.contentProductionId : null,
        });
        this.recording = { take, startedMs: elapsed, paused: false, pausedAt: null, pausedMs: 0 };
        await this.readVideo(take.id);
        activity.record('recorder.take', 'info', `recording take "${take.name}"`, {
          takeId: take.id,
          name: take.name,
          filePath: event.outputPath ?? null,
          stopped: false,
        });
        return;
      }
      case 'OBS_WEBSOCKET_OUTPUT_PAUSED':
        if (this.recording && !this.recording.paused) {
          this.recording.paused = true;
          this.recording.pausedAt = elapsed;
        }
        return;
      case 'OBS_WEBSOCKET_OUTPUT_RESUMED':
        if (this.recording?.paused) {
          this.recording.pausedMs += elapsed - (this.recording.pausedAt ?? elapsed);
          this.recording.paused = false;
          this.recording.pausedAt = null;
        }
        return;
      // The file ends here (OBS stops taking frames at the StopRecord call, ~40 ms before).
      case 'OBS_WEBSOCKET_OUTPUT_STOPPING':
        await this.stopping(at, elapsed);
        return;
      // OBS has finished the file: its path, which may differ from the name (" (2)", "_").
      case 'OBS_WEBSOCKET_OUTPUT_STOPPED': {
        if (this.recording) await this.stopping(at, elapsed);
        const take = this.finishing;
        this.finishing = null;
        if (!take) return;
        const filePath = event.outputPath ?? null;
        repo.setFilePath(take.id, filePath);
        if (filePath) void this.readAudio(take.id, filePath);
        const done = repo.take(take.id);
        activity.record(
          'recorder.take',
          'info',
          `take "${take.name}" stopped: ${filePath ?? 'file not reported'} (${(done?.durationS ?? 0).toFixed(1)} s)${state.current && state.current.filename !== take.name ? `; next recording: ${state.current.filename}` : ''}`,
          { takeId: take.id, name: take.name, filePath, stopped: true },
        );
        return;
      }
      default:
        return;
    }
  }

  /** The take ends: its length is the time recorded, pauses excluded; the next name is made ready. */
  private async stopping(at: Date, elapsed: number): Promise<void> {
    const recording = this.recording;
    this.recording = null;
    if (!recording) return;
    const durationMs = recordedMs(recording, elapsed);
    this.deps.repo.stopTake(recording.take.id, {
      filePath: null,
      stoppedAt: at.toISOString(),
      durationMs,
      seen: true,
    });
    this.finishing = recording.take;
    await this.freshName(recording.take);
  }

  /** The frame rate and size OBS records at, kept with the take (issue #38.5); unknown when OBS will not say. */
  private async readVideo(takeId: number): Promise<void> {
    const { obs, repo } = this.deps;
    try {
      const video = await obs?.getVideoSettings();
      if (video) {
        repo.setVideo(takeId, {
          fpsNumerator: video.fpsNumerator,
          fpsDenominator: video.fpsDenominator,
          width: video.outputWidth,
          height: video.outputHeight,
        });
      }
    } catch {
      // the take's rate stays unknown: exports use the operator's choice and say so
    }
  }

  /** The audio channels of the take's file, when the bridge can read it (issue #39.4). */
  private async readAudio(takeId: number, filePath: string): Promise<void> {
    const channels = await this.deps.probeAudio(filePath);
    if (channels !== null) this.deps.repo.setAudioChannels(takeId, channels);
  }

  /**
   * After a take, the name it used must not be used again (a file is never overwritten): the next
   * free `_Tnn` of its base is held and applied. A name with `%` is OBS's own dated pattern, new
   * at every recording: left alone. Returns the new name, or null when none was needed.
   */
  private async freshName(take?: OpenTake): Promise<string | null> {
    const { state, repo, now } = this.deps;
    const held = state.current;
    const current = held?.filename ?? state.obs;
    if (current === null || current.includes('%') || !repo.nameUsed(current)) return null;
    const base = held && held.filename === current ? held.requested : (take?.baseName ?? current);
    const next = nextFreeTakeName(base, (name) => this.used(name));
    state.hold(next, base, now().toISOString(), 'pending');
    await this.apply();
    this.recordOutcome();
    return next;
  }
}

/** Milliseconds recorded by `at`: since STARTED, pauses (the current one included) left out. */
function recordedMs(recording: Recording, at: number): number {
  const pausedMs = recording.pausedMs + (recording.pausedAt === null ? 0 : at - recording.pausedAt);
  return Math.max(0, at - recording.startedMs - pausedMs);
}
