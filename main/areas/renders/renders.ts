import { randomBytes } from 'node:crypto';
import {
  RENDER_KEPT_DAYS,
  renderSizes,
  type RenderFormat,
  type RenderingSetup,
  type RenderRecord,
} from '../../../shared/api/renders.js';
import type { AreaOffers, ClipMedia } from '../area.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { AppError } from '../../kernel/app-error.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transaction } from '../../kernel/db.js';
import type { JobQueue } from '../../kernel/jobs/queue.js';
import { toolVersion, type MediaTool, type MediaTools } from '../../kernel/media-tools.js';
import { lineCharsFor } from './burned-captions.js';
import { CAPTION_FONT } from './caption-font.js';
import { checkRoom, neededBytes } from './free-space.js';
import { previewFrame } from './preview-frame.js';
import type { RenderFiles } from './render-files.js';
import { clipWords, lengthWords, TAKE_TOLERANCE_S, type RenderRuns } from './render-run.js';
import type { MediaInfo } from './media-info.js';
import type { RenderReadiness } from './make-ready.js';
import type { RendersRepo, StoredRender } from './repo.js';
import { readTakeFile, TakeFileError } from './take-file.js';

export const RENDER_JOB = 'render';

export interface RendersDeps {
  repo: RendersRepo;
  files: RenderFiles;
  runs: RenderRuns;
  tools: MediaTools;
  /** The clips area's offers (its in/out, take and cues; keeping the analysis). */
  clips: Pick<AreaOffers, 'clipToRender' | 'keepAnalysisUntil'>;
  readiness: RenderReadiness;
  jobs: JobQueue;
  transaction: Transaction;
  activity: ActivityLog;
  now: Clock;
  freeSpace: (dir: string) => Promise<number | null>;
}

const ratioOf: Record<RenderFormat, NonNullable<ClipMedia['ratio']>> = {
  '9x16': '9:16',
  '1x1': '1:1',
  '16x9': '16:9',
};

const keptUntil = (from: Date) => new Date(from.getTime() + RENDER_KEPT_DAYS * 86_400_000).toISOString();

/** A production's thread shows at most this many renders of each of its analyses. */
const RENDERS_PER_ANALYSIS = 50;
/**
 * Renders as the API asks for them (DESIGN §6.10): checked before any work (FFmpeg there, the take's
 * file readable here and long enough, room on the disk), queued one at a time, listed with their
 * progress, cancelled, served, and deleted after RENDER_KEPT_DAYS.
 */
export class Renders {
  private readonly versions = new Map<string, Promise<string | null>>();

  constructor(private readonly deps: RendersDeps) {}

  async ask(
    analysisId: string,
    n: number,
    body: { formats: RenderFormat[]; captions: boolean; cropX?: number | undefined },
  ): Promise<RenderRecord> {
    const { clips, files } = this.deps;
    this.ffmpeg();
    const { clip, take } = this.clipWithFile(analysisId, n);
    const { durationS } = await this.readable(take);
    if (durationS + TAKE_TOLERANCE_S < clip.endTime)
      throw AppError.conflict(
        `take ${take.name} lasts ${lengthWords(durationS)} but clip ${n} ends at ${lengthWords(clip.endTime)}: its file ${take.filePath} is shorter than the clip (was the recording cut short, or is the transcript another take's?)`,
      );
    const clipS = clip.endTime - clip.startTime;
    checkRoom(files.root, neededBytes(clipS, body.formats), await this.deps.freeSpace(files.root));

    const at = this.deps.now();
    const stored = {
      id: `rn_${randomBytes(12).toString('base64url')}`,
      analysisId,
      n,
      take,
      startTime: clip.startTime,
      endTime: clip.endTime,
      formats: body.formats,
      captions: body.captions
        ? Object.fromEntries(body.formats.map((format) => [format, clip.captions(lineCharsFor(format))]))
        : null,
      cropX: body.cropX ?? 0.5,
      createdAt: at.toISOString(),
    };
    this.deps.transaction(() => {
      this.deps.repo.insert(stored);
      this.deps.jobs.enqueue({ kind: RENDER_JOB, payload: { renderId: stored.id } });
    });
    // Kept while it waits and runs; once done, as long as its files.
    clips.keepAnalysisUntil(analysisId, keptUntil(at));
    const labels = body.formats.map((format) => renderSizes[format].label).join(', ');
    this.deps.activity.record('render.state', 'info', `Render of ${clipWords(stored)} queued: ${labels}`, {
      renderId: stored.id,
      analysisId,
      n,
      state: 'queued',
      formats: body.formats,
    });
    return this.record(this.found(stored.id));
  }

  /** A frame of the take at the clip's in, to place the 9:16 and 1:1 windows on. */
  async frame(analysisId: string, n: number): Promise<Buffer> {
    const ffmpeg = this.ffmpeg();
    const { clip, take } = this.clipWithFile(analysisId, n);
    await this.readable(take);
    const jpeg = await previewFrame(ffmpeg.path, take.filePath, clip.startTime);
    if (!jpeg)
      throw AppError.conflict(
        `take ${take.name}: FFmpeg made no frame of ${take.filePath} at ${lengthWords(clip.startTime)}`,
      );
    return jpeg;
  }

  list(filter: { analysisId?: string | undefined; n?: number | undefined; limit: number }) {
    return {
      renders: this.deps.repo.list(filter).map((render) => this.record(render)),
      usage: { ...this.deps.repo.usage(), keptDays: RENDER_KEPT_DAYS },
    };
  }

  /** Every render of these analyses (a production's), newest first. */
  ofAnalyses(analysisIds: readonly string[]): RenderRecord[] {
    return analysisIds
      .flatMap((analysisId) => this.deps.repo.list({ analysisId, limit: RENDERS_PER_ANALYSIS }))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((render) => this.record(render));
  }

  get(id: string): RenderRecord {
    return this.record(this.found(id));
  }

  /** A queued render is cancelled at once; a running one once FFmpeg has stopped; one over is as it is. */
  cancel(id: string): RenderRecord {
    const render = this.found(id);
    if (
      render.state === 'queued' &&
      this.deps.repo.end(id, 'cancelled', null, this.deps.now().toISOString())
    ) {
      this.deps.activity.record(
        'render.state',
        'info',
        `Render of ${clipWords(render)} cancelled before it started`,
        {
          renderId: id,
          analysisId: render.analysisId,
          n: render.n,
          state: 'cancelled',
          formats: render.formats,
        },
      );
    } else if (render.state === 'rendering') this.deps.runs.cancel(id);
    return this.get(id);
  }

  /** Make ready (issue #44.1): queued as a job, refused in words before any work. */
  makeReady(id: string): RenderRecord {
    this.deps.readiness.ask(this.found(id));
    return this.get(id);
  }

  /** A media URL a make ready put at the provider, as posting checks it; null when it is not one. */
  clipMedia(accessUrl: string): ClipMedia | null {
    const found = this.deps.repo.mediaByUrl(accessUrl);
    const render = found && this.deps.repo.get(found.renderId);
    if (!found || !render) return null;
    const { kind } = found.media;
    return {
      expiresAt: found.media.expiresAt,
      durationS:
        render.files.find((file) => file.format === kind)?.durationS ?? render.endTime - render.startTime,
      ratio: kind === 'thumbnail' ? null : ratioOf[kind],
    };
  }

  /** The file of a done render in one format; 404 naming what is missing. */
  fileOf(id: string, format: RenderFormat): string {
    const render = this.found(id);
    if (!render.files.some((file) => file.format === format))
      throw AppError.notFound(
        render.state === 'done'
          ? `render ${id} has no ${renderSizes[format].label} file (${render.formats.includes(format) ? 'a newer render of the clip replaced it' : 'not asked for'})`
          : `render ${id} is ${render.state}: no file yet`,
      );
    return this.deps.files.fileOf(id, format);
  }

  async setup(): Promise<Omit<RenderingSetup, 'success'>> {
    const { tools, files, repo } = this.deps;
    const usage = repo.usage();
    return {
      ffmpeg: tools.ffmpeg ? { ...tools.ffmpeg, version: await this.version(tools.ffmpeg) } : null,
      ffprobe: tools.ffprobe ? { ...tools.ffprobe, version: await this.version(tools.ffprobe) } : null,
      font: { family: CAPTION_FONT.family, file: CAPTION_FONT.file, license: CAPTION_FONT.license },
      storage: {
        dir: files.root,
        bytes: usage.bytes,
        renders: usage.renders,
        freeBytes: await this.deps.freeSpace(files.root),
        keptDays: RENDER_KEPT_DAYS,
      },
    };
  }

  /** Renders past their keeping lose their files; failed and cancelled ones their rows. */
  pruneExpired(): void {
    const { repo, files } = this.deps;
    const now = this.deps.now();
    for (const render of repo.expired(now.toISOString())) {
      files.removeAll(render.id);
      repo.remove(render.id);
    }
    const before = new Date(now.getTime() - RENDER_KEPT_DAYS * 86_400_000).toISOString();
    for (const id of repo.endedBefore(before)) repo.remove(id);
  }

  private ffmpeg(): MediaTool {
    const { ffmpeg } = this.deps.tools;
    if (ffmpeg) return ffmpeg;
    throw new AppError(
      'unavailable',
      'NOT_CONFIGURED',
      'FFmpeg is not found: install it (on PATH) or set FFMPEG_PATH to it in the environment or the config file',
    );
  }

  /** The suggestion and its take, refused in words when the take or its file is not known. */
  private clipWithFile(analysisId: string, n: number) {
    const clip = this.deps.clips.clipToRender(analysisId, n);
    const { take } = clip;
    if (!take)
      throw AppError.conflict(
        `analysis ${analysisId} was made without a take: a render cuts the take's file (analyse the transcript with its take)`,
      );
    if (!take.filePath)
      throw AppError.conflict(
        `take ${take.name}: the bridge never heard which file OBS wrote (it was not connected when the recording stopped)`,
      );
    return { clip, take: { id: take.id, name: take.name, filePath: take.filePath } };
  }

  /** The take's file as FFmpeg reads it here; 409 in words when it cannot. */
  private async readable(take: { name: string; filePath: string }): Promise<MediaInfo> {
    try {
      return await readTakeFile(this.deps.tools, take.filePath);
    } catch (error) {
      if (error instanceof TakeFileError) throw AppError.conflict(`take ${take.name}: ${error.message}`);
      throw error;
    }
  }

  private version(tool: MediaTool): Promise<string | null> {
    let version = this.versions.get(tool.path);
    if (!version) this.versions.set(tool.path, (version = toolVersion(tool)));
    return version;
  }

  private found(id: string): StoredRender {
    const render = this.deps.repo.get(id);
    if (!render) throw AppError.notFound(`renderId: no render ${id} (GET /api/renders lists them)`);
    return render;
  }

  private record(render: StoredRender): RenderRecord {
    const durationS = Math.round((render.endTime - render.startTime) * 1000) / 1000;
    return {
      id: render.id,
      analysisId: render.analysisId,
      n: render.n,
      take: render.take,
      startTime: render.startTime,
      endTime: render.endTime,
      durationS,
      formats: render.formats,
      captions: render.captions !== null,
      cropX: render.cropX,
      state: render.state,
      progress:
        render.state === 'rendering'
          ? (this.deps.runs.progressOf(render.id) ?? { percent: 0, etaS: null })
          : null,
      notes: render.notes,
      error: render.error,
      restarts: render.restarts,
      loudness: render.loudness,
      files: render.files.map((file) => ({ ...file, url: `/api/renders/${render.id}/${file.format}.mp4` })),
      createdAt: render.createdAt,
      startedAt: render.startedAt,
      finishedAt: render.finishedAt,
      expiresAt: render.expiresAt,
      ready: render.ready && this.readyOf(render.id, render.ready),
    };
  }

  private readyOf(id: string, ready: NonNullable<StoredRender['ready']>): RenderRecord['ready'] {
    const media = this.deps.repo.media(id);
    const expiries = media.map((item) => item.expiresAt).sort();
    // The running upload list is the job's own; the answer's media are those of a make ready that ended.
    const { state, clipId, error, progress, askedAt, readyAt } = ready;
    return { state, clipId, error, progress, askedAt, readyAt, media, expiresAt: expiries[0] ?? null };
  }
}
