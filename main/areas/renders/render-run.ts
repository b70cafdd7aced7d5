import { renameSync, statSync } from 'node:fs';
import type { Logger } from 'pino';
import { formatClipTime } from '../../../shared/api/clips.js';
import { RENDER_KEPT_DAYS, renderSizes, type RenderFormat } from '../../../shared/api/renders.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { AppError } from '../../kernel/app-error.js';
import type { Clock } from '../../kernel/clock.js';
import type { MediaTools } from '../../kernel/media-tools.js';
import { createPrivateFile, writePrivateFile } from '../../kernel/private-files.js';
import { assScript } from './burned-captions.js';
import { encodeArgs, measureArgs, type EncodePlan } from './ffmpeg-args.js';
import { lastWords, runFfmpeg } from './ffmpeg-process.js';
import { checkRoom, neededBytes } from './free-space.js';
import { frameWindow, upscaleNote } from './frame-window.js';
import { linearGain, readEbur128Summary, TARGET_LUFS, type Gain } from './loudness.js';
import type { MediaInfo } from './media-info.js';
import { secondsLeft } from './progress.js';
import type { RenderFiles } from './render-files.js';
import type { RendersRepo, RenderLoudness, StoredRender, WrittenFile } from './repo.js';
import { probeMedia, readTakeFile, TakeFileError } from './take-file.js';

/** A render that cannot be made, in words for the operator. */
class RenderFailure extends Error {
  override name = 'RenderFailure';
}

/** The first pass (loudness) is this share of the progress bar; the encoding the rest. */
const MEASURE_SHARE = 0.05;
/** /events hears of a render's progress at each step of this many percent. */
const PROGRESS_STEP = 5;
/** A take this much shorter than the clip's out still holds it (a container's rounding). */
export const TAKE_TOLERANCE_S = 0.05;

export interface RenderRunDeps {
  repo: RendersRepo;
  files: RenderFiles;
  tools: MediaTools;
  activity: ActivityLog;
  now: Clock;
  logger: Logger;
  fontsDir: string;
  freeSpace: (dir: string) => Promise<number | null>;
  /** Keeps the render's analysis as long as its files (DESIGN §6.10: analyses with renders outlive 30 days). */
  keepAnalysisUntil: (analysisId: string, until: string) => void;
}

/** A render running now: how far it is, and how to cancel it. */
interface LiveRender {
  cancel: AbortController;
  percent: number;
  etaS: number | null;
}

/** "clip 2 of 20261201_Episode_52 (0:12–0:45)": how every message names a render. */
export const clipWords = (render: Pick<StoredRender, 'n' | 'take' | 'startTime' | 'endTime'>) =>
  `clip ${render.n} of ${render.take.name} (${formatClipTime(render.startTime)}–${formatClipTime(render.endTime)})`;

const labels = (formats: readonly RenderFormat[]) =>
  formats.map((format) => renderSizes[format].label).join(', ');

/** "3.5 s" / "0:45 (45.2 s)": a length as the refusals say it. */
export const lengthWords = (seconds: number) =>
  `${formatClipTime(seconds)} (${Number(seconds.toFixed(1))} s)`;

/**
 * The render job (DESIGN §6.10): measure the clip's loudness, then encode every format in one
 * FFmpeg run, each file a part until FFmpeg has finished it and it reads back as what was asked.
 * Cancelled: FFmpeg stopped, nothing left. The bridge stopping: FFmpeg stopped, the parts removed,
 * the render left `rendering` for the queue to run again at the next start, from zero, saying so.
 */
export class RenderRuns {
  private readonly live = new Map<string, LiveRender>();

  constructor(private readonly deps: RenderRunDeps) {}

  progressOf(id: string): { percent: number; etaS: number | null } | null {
    const live = this.live.get(id);
    return live ? { percent: live.percent, etaS: live.etaS } : null;
  }

  /** Stops a render running here; false when none is. */
  cancel(id: string): boolean {
    const live = this.live.get(id);
    live?.cancel.abort();
    return live !== undefined;
  }

  async run(renderId: string, stopping: AbortSignal): Promise<void> {
    const { repo, activity, files } = this.deps;
    const render = repo.get(renderId);
    if (!render || (render.state !== 'queued' && render.state !== 'rendering')) return;
    const restarted = render.state === 'rendering';
    const at = this.deps.now().toISOString();
    const notes = restarted
      ? [...render.notes, `interrupted by a restart of the bridge; started again from zero at ${at}`]
      : render.notes;
    files.removeWorkFiles(render.id, render.formats);
    if (!repo.start(render.id, at, render.restarts + (restarted ? 1 : 0), notes)) return;
    const cancel = new AbortController();
    this.live.set(render.id, { cancel, percent: 0, etaS: null });
    activity.record(
      'render.state',
      restarted ? 'warn' : 'info',
      restarted
        ? `Render of ${clipWords(render)} was interrupted by a restart of the bridge: started again from zero`
        : `Rendering ${clipWords(render)}: ${labels(render.formats)}`,
      { ...this.ids(render), state: 'rendering', ...(restarted ? { restarted: true } : {}) },
    );
    const signal = AbortSignal.any([stopping, cancel.signal]);
    try {
      const made = await this.make(render, notes, signal);
      if (signal.aborted) return this.stopped(render, stopping.aborted);
      this.done(render, made);
    } catch (error) {
      if (signal.aborted) return this.stopped(render, stopping.aborted);
      this.failed(render, error);
    } finally {
      this.live.delete(render.id);
    }
  }

  private async make(
    render: StoredRender,
    notes: readonly string[],
    signal: AbortSignal,
  ): Promise<{ files: WrittenFile[]; loudness: RenderLoudness | null; notes: string[] }> {
    const { files, tools } = this.deps;
    const durationS = render.endTime - render.startTime;
    checkRoom(files.root, neededBytes(durationS, render.formats), await this.deps.freeSpace(files.root));
    const take = await this.takeFile(render);
    files.prepare(render.id);
    const started = Date.now();
    const report = (fraction: number) => this.report(render, Math.min(1, fraction), Date.now() - started);
    const clip = { input: render.take.filePath, startS: render.startTime, durationS };

    let gain: Gain = { gainDb: 0, expectedLufs: null, heldBy: 'silence' };
    let measuredLufs: number | null = null;
    if (take.hasAudio) {
      const measured = await runFfmpeg(tools.ffmpeg!.path, measureArgs(clip), {
        signal,
        onProgress: (update) => report((update.outS / durationS) * MEASURE_SHARE),
      });
      if (signal.aborted) return { files: [], loudness: null, notes: [] };
      if (!measured.ok)
        throw new RenderFailure(`measuring the loudness, FFmpeg stopped: ${lastWords(measured.stderr)}`);
      const measure = readEbur128Summary(measured.stderr);
      measuredLufs = measure.integratedLufs;
      gain = linearGain(measure);
    }

    const plan: EncodePlan = {
      ...clip,
      source: { width: take.width, height: take.height },
      hasAudio: take.hasAudio,
      cropX: render.cropX,
      gainDb: gain.gainDb,
      fontsDir: this.deps.fontsDir,
      outputs: render.formats.map((format) => ({
        format,
        file: files.partOf(render.id, format),
        captions: render.captions ? files.captionsOf(render.id, format) : null,
      })),
    };
    for (const output of plan.outputs) {
      if (output.captions !== null)
        writePrivateFile(output.captions, assScript(render.captions?.[output.format] ?? [], output.format));
      // Made 0600 here: FFmpeg writes into it as it is, like every file of the data dir.
      createPrivateFile(output.file);
    }
    const encoded = await runFfmpeg(tools.ffmpeg!.path, encodeArgs(plan), {
      signal,
      onProgress: (update) => report(MEASURE_SHARE + (update.outS / durationS) * (1 - MEASURE_SHARE)),
    });
    if (signal.aborted) return { files: [], loudness: null, notes: [] };
    if (!encoded.ok)
      throw new RenderFailure(`FFmpeg stopped (exit code ${encoded.code}): ${lastWords(encoded.stderr)}`);
    report(1);
    return {
      files: await this.readBack(render),
      loudness: take.hasAudio ? { measuredLufs, gainDb: gain.gainDb, targetLufs: TARGET_LUFS } : null,
      notes: [...notes, ...this.notesOf(render, take, gain)],
    };
  }

  /** The take's file, read again now (it may have moved since the render was asked for). */
  private async takeFile(render: StoredRender): Promise<MediaInfo> {
    let info: MediaInfo;
    try {
      info = await readTakeFile(this.deps.tools, render.take.filePath);
    } catch (error) {
      if (error instanceof TakeFileError)
        throw new RenderFailure(`take ${render.take.name}: ${error.message}`);
      throw error;
    }
    if (info.durationS + TAKE_TOLERANCE_S < render.endTime)
      throw new RenderFailure(
        `take ${render.take.name} lasts ${lengthWords(info.durationS)} but the clip ends at ${lengthWords(render.endTime)}`,
      );
    return info;
  }

  /** Each part read back as what was asked (a picture of the format's size), then made the file. */
  private async readBack(render: StoredRender): Promise<WrittenFile[]> {
    const { files, tools } = this.deps;
    const written: WrittenFile[] = [];
    for (const format of render.formats) {
      const part = files.partOf(render.id, format);
      const info = await probeMedia(tools, part);
      const size = renderSizes[format];
      if (!info || info.width !== size.width || info.height !== size.height)
        throw new RenderFailure(
          `the ${size.label} file FFmpeg wrote does not read back as ${size.width}×${size.height}`,
        );
      written.push({
        format,
        bytes: statSync(part).size,
        width: info.width,
        height: info.height,
        durationS: Math.round(info.durationS * 1000) / 1000,
      });
    }
    for (const format of render.formats)
      renameSync(files.partOf(render.id, format), files.fileOf(render.id, format));
    files.removeWorkFiles(render.id, render.formats);
    return written;
  }

  private notesOf(render: StoredRender, take: MediaInfo, gain: Gain): string[] {
    const source = { width: take.width, height: take.height };
    const notes = render.formats.flatMap((format) => {
      const note = upscaleNote(format, source, frameWindow(source, format, render.cropX));
      return note === null ? [] : [note];
    });
    if (!take.hasAudio) notes.push('the take has no audio: the render is silent');
    else if (gain.heldBy === 'silence') notes.push('loudness: the clip is silent, left as it is');
    else if (gain.heldBy === 'peak')
      notes.push(
        `loudness: ${gain.expectedLufs} LUFS, not ${TARGET_LUFS}: raised ${gain.gainDb} dB, as far as it goes without clipping`,
      );
    return notes;
  }

  private report(render: StoredRender, fraction: number, elapsedMs: number): void {
    const live = this.live.get(render.id);
    if (!live) return;
    const percent = Math.floor(fraction * 100);
    const step = Math.floor(percent / PROGRESS_STEP);
    const reported = Math.floor(live.percent / PROGRESS_STEP);
    live.percent = percent;
    live.etaS = secondsLeft(fraction, elapsedMs);
    if (step <= reported) return;
    this.deps.activity.record(
      'render.progress',
      'info',
      `Rendering ${clipWords(render)}: ${percent}%${live.etaS === null ? '' : `, about ${live.etaS} s left`}`,
      { renderId: render.id, percent, etaS: live.etaS },
    );
  }

  private done(render: StoredRender, made: Awaited<ReturnType<RenderRuns['make']>>): void {
    const { repo, activity, now } = this.deps;
    const at = now();
    const expiresAt = new Date(at.getTime() + RENDER_KEPT_DAYS * 86_400_000).toISOString();
    repo.finish(render.id, { ...made, expiresAt, at: at.toISOString() });
    this.replaceOlder(render);
    this.deps.keepAnalysisUntil(render.analysisId, expiresAt);
    const bytes = made.files.reduce((sum, file) => sum + file.bytes, 0);
    activity.record(
      'render.state',
      'info',
      `Rendered ${clipWords(render)}: ${labels(render.formats)} (${(bytes / 1e6).toFixed(1)} MB)`,
      { ...this.ids(render), state: 'done' },
    );
  }

  /** A newer render of the clip replaces the earlier ones' files of its formats (re-render after a nudge). */
  private replaceOlder(render: StoredRender): void {
    const { repo, files } = this.deps;
    for (const older of repo.list({ analysisId: render.analysisId, n: render.n, limit: 200 })) {
      if (older.id === render.id || older.state !== 'done' || older.createdAt > render.createdAt) continue;
      const kept = older.files.filter((file) => !render.formats.includes(file.format));
      if (kept.length === older.files.length) continue;
      if (kept.length === 0) {
        files.removeAll(older.id);
        repo.remove(older.id);
        continue;
      }
      for (const file of older.files) if (!kept.includes(file)) files.removeFile(older.id, file.format);
      repo.setFiles(older.id, kept);
    }
  }

  private stopped(render: StoredRender, bridgeStopping: boolean): void {
    const { repo, files, activity, now } = this.deps;
    if (bridgeStopping) {
      // Left rendering: the queue runs it again at the next start (recovered), from zero.
      files.removeWorkFiles(render.id, render.formats);
      return;
    }
    files.removeAll(render.id);
    repo.end(render.id, 'cancelled', null, now().toISOString());
    activity.record(
      'render.state',
      'info',
      `Render of ${clipWords(render)} cancelled: FFmpeg stopped, nothing kept`,
      {
        ...this.ids(render),
        state: 'cancelled',
      },
    );
  }

  private failed(render: StoredRender, error: unknown): void {
    const { repo, files, activity, now, logger } = this.deps;
    const words =
      error instanceof RenderFailure || error instanceof AppError
        ? error.message
        : `the bridge failed (${error instanceof Error ? error.message : String(error)})`;
    if (!(error instanceof RenderFailure || error instanceof AppError))
      logger.error({ err: error }, 'render failed');
    files.removeAll(render.id);
    repo.end(render.id, 'failed', words, now().toISOString());
    activity.record('render.state', 'error', `Render of ${clipWords(render)} failed: ${words}`, {
      ...this.ids(render),
      state: 'failed',
    });
  }

  private ids(render: StoredRender) {
    return { renderId: render.id, analysisId: render.analysisId, n: render.n, formats: render.formats };
  }
}
