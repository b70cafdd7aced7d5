import { statSync } from 'node:fs';
import path from 'node:path';
import {
  MEDIA_KEPT_DAYS,
  type ReadyMedia,
  type ReadyMediaKind,
  type RenderFormat,
} from '../../../shared/api/renders.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { AppError } from '../../kernel/app-error.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transaction } from '../../kernel/db.js';
import type { JobQueue } from '../../kernel/jobs/queue.js';
import type { MediaTools } from '../../kernel/media-tools.js';
import type { CrmClient } from '../../peers/crm.js';
import { PeerError } from '../../peers/peer-error.js';
import type { PostsvcClient } from '../../peers/postsvc.js';
import { PostsvcError } from '../../peers/postsvc.js';
import { confirmUploaded, putPresigned } from '../../peers/presigned-media.js';
import type { AreaOffers } from '../area.js';
import { clipWords } from './render-run.js';
import type { RenderFiles } from './render-files.js';
import type { RendersRepo, StoredReady, StoredRender } from './repo.js';
import { writeThumbnail } from './thumbnail.js';

export const READY_JOB = 'render-ready';

/** The CRM Clip's field for each format's video (spec §2.3). */
const clipVideoField: Record<RenderFormat, string> = {
  '9x16': 'videoUrlPortrait',
  '1x1': 'videoUrlSquare',
  '16x9': 'videoUrlLandscape',
};

/** PUTs per file: each one that fails is tried again with a new upload URL (a presigned URL is good once). */
const PUT_TRIES = 3;

export interface ReadyDeps {
  repo: RendersRepo;
  files: RenderFiles;
  tools: MediaTools;
  crm: CrmClient | null;
  postsvc: PostsvcClient | null;
  /** POSTSVC_PLAN: on free, media uploads are refused before anything is sent. */
  plan: () => string;
  clips: Pick<AreaOffers, 'clipToRender'>;
  jobs: JobQueue;
  transaction: Transaction;
  activity: ActivityLog;
  now: Clock;
}

interface Upload {
  kind: ReadyMediaKind;
  file: string;
  fileName: string;
  contentType: 'mp4' | 'jpg';
}

/**
 * Make ready (issue #44.1, DESIGN §6.10): a done render's files and a frame of it go to the posting
 * provider's media store — upload URL (a read, retried), one presigned PUT (never repeated: a failed
 * PUT gets a new upload URL), HEAD of the access URL (a failed upload is silent) — and the CRM Clip
 * drafted from the same suggestion is written Ready with the URLs. A job; each step said on /events.
 */
export class RenderReadiness {
  constructor(private readonly deps: ReadyDeps) {}

  /** Refused in words before any work; a make ready already under way is answered as it is. */
  ask(render: StoredRender): void {
    if (render.ready && ['queued', 'uploading'].includes(render.ready.state)) return;
    if (render.state !== 'done' || render.files.length === 0)
      throw AppError.conflict(
        `render ${render.id} is ${render.state}${render.state === 'done' ? ' but its files were replaced by a newer render' : ''}: only a done render's files can be made ready`,
      );
    if (!this.deps.postsvc)
      throw AppError.notConfigured('the posting provider', 'POSTSVC_URL and POSTSVC_API_KEY');
    if (!this.deps.crm) throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
    if (this.deps.plan() === 'free')
      throw AppError.conflict(
        "make ready uploads the files to the posting provider's media store, which needs its Premium plan or above: media uploads are refused on the free plan (POSTSVC_PLAN is free)",
      );
    const { draftClipId } = this.deps.clips.clipToRender(render.analysisId, render.n);
    if (!draftClipId)
      throw AppError.conflict(
        `${clipWords(render)} has no draft clip in the CRM yet: create its draft clip first, then make it ready`,
      );
    const ready: StoredReady = {
      state: 'queued',
      clipId: draftClipId,
      error: null,
      progress: null,
      askedAt: this.deps.now().toISOString(),
      readyAt: null,
    };
    this.deps.transaction(() => {
      this.deps.repo.setReady(render.id, ready);
      this.deps.jobs.enqueue({ kind: READY_JOB, payload: { renderId: render.id } });
    });
    this.say(render, ready, 'info', `Make ready of ${clipWords(render)} queued`);
  }

  /** The job: uploads, checks, writes the Clip; a failure is stored and said in words (not retried by the queue). */
  async run(renderId: string, signal: AbortSignal): Promise<void> {
    const render = this.deps.repo.get(renderId);
    if (!render?.ready || !['queued', 'uploading'].includes(render.ready.state)) return;
    const uploads = this.uploadsOf(render);
    // A run a restart cut short goes on: what it uploaded and checked (HEAD) is not sent again.
    const media: ReadyMedia[] = render.ready.state === 'uploading' ? [...(render.ready.uploaded ?? [])] : [];
    let ready: StoredReady = {
      ...render.ready,
      state: 'uploading',
      progress: { done: media.length, total: uploads.length },
      uploaded: [...media],
    };
    this.deps.repo.setReady(render.id, ready);
    this.say(
      render,
      ready,
      'info',
      media.length > 0
        ? `Making ${clipWords(render)} ready goes on after a restart: ${media.length} of ${uploads.length} files already uploaded`
        : `Making ${clipWords(render)} ready: uploading ${uploads.length} files`,
    );
    try {
      for (const upload of uploads) {
        if (media.some((item) => item.kind === upload.kind)) continue;
        if (upload.kind === 'thumbnail') await this.thumbnail(render, upload.file);
        media.push(await this.upload(upload, signal));
        ready = { ...ready, progress: { done: media.length, total: uploads.length }, uploaded: [...media] };
        this.deps.repo.setReady(render.id, ready);
        this.say(
          render,
          ready,
          'info',
          `Making ${clipWords(render)} ready: ${media.length} of ${uploads.length} files uploaded`,
        );
      }
      await this.writeClip(ready.clipId, media, signal);
      this.deps.transaction(() => {
        for (const item of media) this.deps.repo.putMedia(render.id, item);
        ready = {
          ...withoutUploaded(ready),
          state: 'ready',
          progress: null,
          error: null,
          readyAt: this.deps.now().toISOString(),
        };
        this.deps.repo.setReady(render.id, ready);
      });
      this.say(
        render,
        ready,
        'info',
        `${clipWords(render)} is Ready in the CRM, its media at the provider until ${earliest(media)}`,
      );
    } catch (error) {
      signal.throwIfAborted();
      ready = { ...withoutUploaded(ready), state: 'failed', progress: null, error: failureWords(error) };
      this.deps.repo.setReady(render.id, ready);
      this.say(render, ready, 'error', `Make ready of ${clipWords(render)} failed: ${ready.error}`);
    }
  }

  private uploadsOf(render: StoredRender): Upload[] {
    const base = `clip-${render.id}`;
    return [
      ...render.files.map((file) => ({
        kind: file.format,
        file: this.deps.files.fileOf(render.id, file.format),
        fileName: `${base}-${file.format}.mp4`,
        contentType: 'mp4' as const,
      })),
      {
        kind: 'thumbnail' as const,
        file: path.join(this.deps.files.dirOf(render.id), 'thumbnail.jpg'),
        fileName: `${base}-thumbnail.jpg`,
        contentType: 'jpg' as const,
      },
    ];
  }

  /** A frame a third into the first format's file (past a cold open's first frame). */
  private async thumbnail(render: StoredRender, out: string): Promise<void> {
    const ffmpeg = this.deps.tools.ffmpeg;
    const first = render.files[0]!;
    const made =
      ffmpeg !== null &&
      (await writeThumbnail(
        ffmpeg.path,
        this.deps.files.fileOf(render.id, first.format),
        first.durationS / 3,
        out,
      ));
    if (!made) throw new Error(`FFmpeg made no thumbnail frame of the ${first.format} file`);
  }

  private async upload(upload: Upload, signal: AbortSignal): Promise<ReadyMedia> {
    const postsvc = this.deps.postsvc!;
    const bytes = statSync(upload.file).size;
    for (let attempt = 1; ; attempt++) {
      const target = await postsvc.mediaUploadUrl(upload.fileName, upload.contentType, signal);
      try {
        await putPresigned(target.uploadUrl, upload.file, target.contentType, { signal });
      } catch (error) {
        if (attempt >= PUT_TRIES || !(error instanceof PeerError)) throw error;
        continue;
      }
      await confirmUploaded(target.accessUrl, bytes, { signal });
      const uploadedAt = this.deps.now();
      return {
        kind: upload.kind,
        accessUrl: target.accessUrl,
        bytes,
        uploadedAt: uploadedAt.toISOString(),
        expiresAt: new Date(uploadedAt.getTime() + MEDIA_KEPT_DAYS * 86_400_000).toISOString(),
      };
    }
  }

  private async writeClip(clipId: string, media: readonly ReadyMedia[], signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const changes: Record<string, string> = { status: 'Ready' };
    for (const item of media) {
      if (item.kind === 'thumbnail') changes.thumbnailUrl = item.accessUrl;
      else changes[clipVideoField[item.kind]] = item.accessUrl;
    }
    try {
      await this.deps.crm!.update('Clip', clipId, changes);
    } catch (error) {
      throw new Error(
        `the CRM did not take the Clip's URLs: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  private say(render: StoredRender, ready: StoredReady, level: 'info' | 'error', message: string): void {
    this.deps.activity.record('render.ready', level, message, {
      renderId: render.id,
      clipId: ready.clipId,
      state: ready.state,
      ...(ready.progress ? { done: ready.progress.done, total: ready.progress.total } : {}),
    });
  }
}

/** A make ready that ended keeps no upload list: asking again uploads anew (fresh 30 days). */
function withoutUploaded(ready: StoredReady): StoredReady {
  const { uploaded: _uploaded, ...ended } = ready;
  return ended;
}

const earliest = (media: readonly ReadyMedia[]) => media.map((item) => item.expiresAt).sort()[0] ?? 'unknown';

/** A failure as the operator reads it: the provider's refusal of media on its free plan said as such. */
function failureWords(error: unknown): string {
  if (error instanceof PostsvcError && error.status === 403)
    return `the posting provider refused media uploads (${error.providerMessage}): on its free plan media uploads are refused, they need Premium and up`;
  return error instanceof Error ? error.message : String(error);
}
