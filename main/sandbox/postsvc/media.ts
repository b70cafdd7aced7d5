import { createHash, randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { errorBody, errorCodes, ProviderError } from './errors.js';
import type { PostsvcPlan } from './posts.js';

/** The short content types the provider takes (DESIGN §5.2) and the MIME type each is uploaded with. */
const mimeTypes = { mp4: 'video/mp4', mov: 'video/quicktime', png: 'image/png', jpg: 'image/jpeg' } as const;
type ShortType = keyof typeof mimeTypes;

const UPLOAD_VALID_MS = 30 * 60_000;
const ACCESS_VALID_MS = 30 * 86_400_000;
/** What one upload may hold: the sandbox keeps the bytes in memory. */
const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

/** Where the presigned uploads and the stored files live on the sandbox's own origin (a bucket, for the real one). */
export const PRESIGNED_PREFIX = '/presigned-upload';
export const FILES_PREFIX = '/media-files';

/** A stored file as the control routes and tests see it. */
export interface StoredMedia {
  id: string;
  fileName: string;
  contentType: string;
  accessUrl: string;
  bytes: number;
  sha256: string;
  uploadedAt: string;
  expiresAt: string;
}

interface PendingUpload {
  id: string;
  fileName: string;
  contentType: string;
  expiresAt: number;
}

/**
 * The provider's media store (Premium plans and up): an upload URL valid once for 30 minutes, with
 * the MIME type it was issued for and no Authorization header (a presigned URL carries its own
 * signature; S3 refuses a second mechanism), and an access URL serving the bytes for 30 days with
 * HEAD and byte ranges. Nothing checks an upload for the caller: a failed one is silent.
 */
export class MediaStore {
  private readonly pending = new Map<string, PendingUpload>();
  private readonly files = new Map<string, { meta: StoredMedia; data: Buffer }>();

  constructor(
    private readonly options: { baseUrl: () => string; now: () => Date; plan: () => PostsvcPlan },
  ) {}

  /** GET /media/uploadUrl (behind the provider's key). */
  issue(query: URLSearchParams): { uploadUrl: string; accessUrl: string; contentType: string } {
    if (this.options.plan() === 'free') {
      throw new ProviderError(
        403,
        errorBody(
          errorCodes.planRequired,
          'Media upload requires a Premium, Business or Enterprise plan. Upgrade your plan, or give mediaUrls of media hosted elsewhere.',
        ),
      );
    }
    const fileName = query.get('fileName') ?? '';
    if (!/^[A-Za-z0-9][A-Za-z0-9._ -]{0,199}$/.test(fileName))
      badRequest(
        'fileName is required: letters, digits, dot, dash, underscore or space, at most 200 characters',
      );
    const short = query.get('contentType') ?? '';
    if (!(short in mimeTypes)) badRequest(`contentType must be one of ${Object.keys(mimeTypes).join(', ')}`);
    const upload: PendingUpload = {
      id: randomBytes(12).toString('hex'),
      fileName,
      contentType: mimeTypes[short as ShortType],
      expiresAt: this.options.now().getTime() + UPLOAD_VALID_MS,
    };
    const token = randomBytes(24).toString('base64url');
    this.pending.set(token, upload);
    const base = this.options.baseUrl();
    return {
      uploadUrl: `${base}${PRESIGNED_PREFIX}/${token}`,
      accessUrl: this.accessUrl(upload),
      contentType: upload.contentType,
    };
  }

  /** The routes of the "bucket": the presigned PUT and the access URLs (no provider key on either). */
  bucketRouter(): Router {
    const router = express.Router();
    router.put(
      `${PRESIGNED_PREFIX}/:token`,
      express.raw({ type: () => true, limit: MAX_UPLOAD_BYTES }),
      (req, res) => {
        this.receive(req, res);
      },
    );
    router.get(`${FILES_PREFIX}/:id/:name`, (req, res) => {
      this.serve(req, res);
    });
    return router;
  }

  list(): StoredMedia[] {
    return [...this.files.values()].map((file) => ({ ...file.meta }));
  }

  bytesOf(accessUrl: string): Buffer | null {
    const file = [...this.files.values()].find((entry) => entry.meta.accessUrl === accessUrl);
    return file ? Buffer.from(file.data) : null;
  }

  private accessUrl(upload: { id: string; fileName: string }): string {
    return `${this.options.baseUrl()}${FILES_PREFIX}/${upload.id}/${encodeURIComponent(upload.fileName)}`;
  }

  private receive(req: Request, res: Response): void {
    const token = String(req.params.token);
    const upload = this.pending.get(token);
    // As S3 answers: XML-ish words in plain text are enough for the sandbox.
    if (req.get('authorization') !== undefined) {
      res
        .status(400)
        .type('text/plain')
        .send(
          'InvalidArgument: Only one auth mechanism allowed; the upload URL is presigned, an Authorization header is not allowed with it',
        );
      return;
    }
    if (!upload) {
      res.status(403).type('text/plain').send('AccessDenied: this upload URL is unknown or was already used');
      return;
    }
    if (this.options.now().getTime() > upload.expiresAt) {
      this.pending.delete(token);
      res
        .status(403)
        .type('text/plain')
        .send('AccessDenied: Request has expired (upload URLs are valid 30 minutes)');
      return;
    }
    if (req.get('content-type') !== upload.contentType) {
      res
        .status(403)
        .type('text/plain')
        .send(`SignatureDoesNotMatch: the upload URL was signed for Content-Type ${upload.contentType}`);
      return;
    }
    const data = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    this.pending.delete(token);
    const at = this.options.now();
    this.files.set(upload.id, {
      data,
      meta: {
        id: upload.id,
        fileName: upload.fileName,
        contentType: upload.contentType,
        accessUrl: this.accessUrl(upload),
        bytes: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
        uploadedAt: at.toISOString(),
        expiresAt: new Date(at.getTime() + ACCESS_VALID_MS).toISOString(),
      },
    });
    res
      .status(200)
      .set('ETag', `"${createHash('md5').update(data).digest('hex')}"`)
      .end();
  }

  /** GET and HEAD (express answers HEAD with the GET route, without the body), with one byte range. */
  private serve(req: Request, res: Response): void {
    const file = this.files.get(String(req.params.id));
    if (!file || Date.parse(file.meta.expiresAt) <= this.options.now().getTime()) {
      res.status(404).type('text/plain').send('NoSuchKey: the media does not exist or has expired');
      return;
    }
    const { data } = file;
    res.set({ 'Content-Type': file.meta.contentType, 'Accept-Ranges': 'bytes' });
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.get('range') ?? '');
    if (!range) {
      res
        .status(200)
        .set('Content-Length', String(data.length))
        .end(req.method === 'HEAD' ? undefined : data);
      return;
    }
    const [, from, to] = range;
    const start = from === '' ? Math.max(0, data.length - Number(to)) : Number(from);
    const end = from === '' || to === '' ? data.length - 1 : Math.min(Number(to), data.length - 1);
    if (start >= data.length || start > end) {
      res.status(416).set('Content-Range', `bytes */${data.length}`).end();
      return;
    }
    const part = data.subarray(start, end + 1);
    res
      .status(206)
      .set({ 'Content-Range': `bytes ${start}-${end}/${data.length}`, 'Content-Length': String(part.length) })
      .end(req.method === 'HEAD' ? undefined : part);
  }
}

function badRequest(message: string): never {
  throw new ProviderError(
    400,
    errorBody(errorCodes.missingParameters, `Missing or incorrect parameters: ${message}`),
  );
}
