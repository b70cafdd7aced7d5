import { z } from 'zod';
import { analysisClipParams } from './clips.js';
import { defineContract, queryInt } from './contract.js';

/**
 * Clip renders (DESIGN §6.10, issue #43): a reviewed suggestion cut from its take's file into
 * captioned MP4s, one per format its platforms prefer (spec §2.3), as queue jobs with progress.
 */
export const renderFormats = ['9x16', '1x1', '16x9'] as const;
export type RenderFormat = (typeof renderFormats)[number];

/** Each format's picture (spec §2.3: Portrait 1080×1920, Square 1080×1080, Landscape 1920×1080). */
export const renderSizes: Record<RenderFormat, { width: number; height: number; label: string }> = {
  '9x16': { width: 1080, height: 1920, label: '9:16' },
  '1x1': { width: 1080, height: 1080, label: '1:1' },
  '16x9': { width: 1920, height: 1080, label: '16:9' },
};

export const renderStates = ['queued', 'rendering', 'done', 'failed', 'cancelled'] as const;
export type RenderState = (typeof renderStates)[number];

/** How long a render's files are kept after it is done (then deleted with their analysis's hold). */
export const RENDER_KEPT_DAYS = 30;

export const renderId = z
  .string()
  .regex(/^rn_[A-Za-z0-9_-]{16}$/, 'is not a render id (rn_ and 16 characters, from POST …/render)');
const renderFormat = z.enum(renderFormats, { error: `must be one of ${renderFormats.join(', ')}` });

export const renderFile = z.object({
  format: renderFormat,
  /** GET it with the key: video/mp4, byte ranges and HEAD answered. */
  url: z.string(),
  bytes: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  /** As ffprobe (or FFmpeg) reads the file written. */
  durationS: z.number(),
});
export type RenderFile = z.infer<typeof renderFile>;

/** Make ready (issue #44.1): where it stands. queued and uploading: a job runs it. */
export const readyStates = ['queued', 'uploading', 'ready', 'failed'] as const;
export type ReadyState = (typeof readyStates)[number];
/** What goes to the provider's media store: each format's file and a frame of it as the thumbnail. */
export const readyMediaKinds = [...renderFormats, 'thumbnail'] as const;
export type ReadyMediaKind = (typeof readyMediaKinds)[number];

/** How long the provider's access URLs serve their media (DESIGN §5.2). */
export const MEDIA_KEPT_DAYS = 30;

export const readyMedia = z.object({
  kind: z.enum(readyMediaKinds),
  /** Served by the provider to anyone who has it, until `expiresAt`: what the Clip and a post's mediaUrls carry. */
  accessUrl: z.string(),
  bytes: z.number().int(),
  uploadedAt: z.string(),
  expiresAt: z.string(),
});
export type ReadyMedia = z.infer<typeof readyMedia>;

export const renderReady = z.object({
  state: z.enum(readyStates),
  /** The CRM Clip written Ready: the draft made from the same suggestion. */
  clipId: z.string(),
  /** Why it failed, in words (state failed). */
  error: z.string().nullable(),
  /** While uploading: files sent so far of all. */
  progress: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
  /** Uploaded and checked (HEAD) by the last make ready that got that far. */
  media: z.array(readyMedia),
  /** The earliest of the media's expiries: after it a post must not carry them (make ready again). */
  expiresAt: z.string().nullable(),
  askedAt: z.string(),
  readyAt: z.string().nullable(),
});

export const renderRecord = z.object({
  id: z.string(),
  analysisId: z.string(),
  /** The suggestion's number in its analysis, 1 for the first. */
  n: z.number().int(),
  take: z.object({ id: z.number().int(), name: z.string(), filePath: z.string() }),
  /** The reviewed in and out, seconds of the take, when the render was asked for. */
  startTime: z.number(),
  endTime: z.number(),
  durationS: z.number(),
  formats: z.array(renderFormat),
  captions: z.boolean(),
  /** Where the 9:16 and 1:1 windows sit across the picture: 0 left, 0.5 centre, 1 right. */
  cropX: z.number(),
  state: z.enum(renderStates),
  /** While rendering: how far (0–100) and the seconds left, estimated from the speed so far (null at first). */
  progress: z.object({ percent: z.number(), etaS: z.number().nullable() }).nullable(),
  /** What the operator should know of the result: a window upscaled, loudness held below −14 LUFS, a restart. */
  notes: z.array(z.string()),
  /** Why it failed, in words (state failed). */
  error: z.string().nullable(),
  /** How many times a restart of the bridge interrupted it (each time it started again from zero). */
  restarts: z.number().int(),
  /** EBU R128 of the clip's audio as measured (first pass) and the linear gain applied (second). */
  loudness: z
    .object({ measuredLufs: z.number().nullable(), gainDb: z.number(), targetLufs: z.number() })
    .nullable(),
  /** The files, once done. */
  files: z.array(renderFile),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** When the files are deleted (done renders); null otherwise. */
  expiresAt: z.string().nullable(),
  /** Make ready: the files at the provider and the CRM Clip written Ready; null: never asked. */
  ready: renderReady.nullable(),
});
export type RenderRecord = z.infer<typeof renderRecord>;

export const startRender = defineContract({
  method: 'post',
  path: '/clips/analyses/:analysisId/clips/:n/render',
  tag: 'renders',
  summary:
    "Render suggestion n of a stored analysis, as reviewed, from its take's file: H.264/AAC MP4 (faststart) per format (9x16 1080×1920, 1x1 1080×1080, 16x9 1920×1080), captions burned in when asked, loudness −14 LUFS. Refused before any work when the take's file cannot be read here or is shorter than the clip, or the disk has no room. Queued (one render at a time); answers its id.",
  auth: 'key',
  params: analysisClipParams,
  body: z.object({
    formats: z
      .array(renderFormat)
      .min(1, 'must name at least one format')
      .max(renderFormats.length)
      .refine((formats) => new Set(formats).size === formats.length, 'must not name a format twice')
      .meta({ uniqueItems: true }),
    captions: z.boolean({ error: 'must be true or false' }),
    cropX: z
      .number({ error: 'must be a number from 0 (left) to 1 (right)' })
      .min(0, 'must be at least 0 (the left edge)')
      .max(1, 'must be at most 1 (the right edge)')
      .optional()
      .meta({
        description: 'horizontal position of the 9:16 and 1:1 windows: 0 left, 0.5 centre (default), 1 right',
      }),
  }),
  response: z.object({ success: z.literal(true), render: renderRecord }),
  otherResponses: {
    202: {
      description: 'queued: its id, state and, on GET /api/renders/{id} and /events, its progress',
      schema: z.object({ success: z.literal(true), render: renderRecord }),
    },
  },
});

export const listRenders = defineContract({
  method: 'get',
  path: '/api/renders',
  tag: 'renders',
  summary:
    'Renders, newest first (of one analysis, or one of its suggestions), with their state, progress and files; the disk they use.',
  auth: 'key',
  query: z.object({
    analysisId: z.string().optional(),
    n: queryInt(1, 20).optional(),
    limit: queryInt(1, 200).default(50),
  }),
  response: z.object({
    success: z.literal(true),
    renders: z.array(renderRecord),
    usage: z.object({ bytes: z.number().int(), renders: z.number().int(), keptDays: z.number().int() }),
  }),
});

export const getRender = defineContract({
  method: 'get',
  path: '/api/renders/:renderId',
  tag: 'renders',
  summary: "A render's state (queued, rendering, done, failed, cancelled), progress, notes and files.",
  auth: 'key',
  params: z.object({ renderId }),
  response: z.object({ success: z.literal(true), render: renderRecord }),
});

/** A <video> or <img> element sends no headers: the key may come as `?key=` on the media routes. */
const mediaQuery = z.object({ key: z.string().optional() });

export const getRenderFile = defineContract({
  method: 'get',
  path: '/api/renders/:renderId/:format.mp4',
  tag: 'renders',
  summary:
    "A done render's file in one format (video/mp4); byte ranges (206, 416) and HEAD are answered. The key may be given as ?key= here (a video element cannot send headers).",
  auth: 'key',
  params: z.object({ renderId, format: renderFormat }),
  query: mediaQuery,
  response: z.string().meta({ format: 'binary' }),
  responseType: 'video/mp4',
});

export const cancelRender = defineContract({
  method: 'post',
  path: '/api/renders/:renderId/cancel',
  tag: 'renders',
  summary:
    'Cancel a queued or running render: FFmpeg is stopped and no part of a file is left. A render already over is answered as it is.',
  auth: 'key',
  params: z.object({ renderId }),
  response: z.object({ success: z.literal(true), render: renderRecord }),
});

export const getClipFrame = defineContract({
  method: 'get',
  path: '/clips/analyses/:analysisId/clips/:n/frame.jpg',
  tag: 'renders',
  summary:
    "A frame of the take at the suggestion's reviewed in (JPEG, 640 pixels wide), to place the 9:16 and 1:1 windows on. The key may be given as ?key= here (an image element cannot send headers).",
  auth: 'key',
  params: analysisClipParams,
  query: mediaQuery,
  response: z.string().meta({ format: 'binary' }),
  responseType: 'image/jpeg',
});

export const makeRenderReady = defineContract({
  method: 'post',
  path: '/api/renders/:renderId/ready',
  tag: 'renders',
  summary:
    "Make a done render ready (issue #44.1): each file and a frame of it (the thumbnail) uploaded to the posting provider's media store (upload URL, one presigned PUT, HEAD of the access URL), then the CRM Clip drafted from the same suggestion written Ready with its video URL per format and thumbnailUrl. A job: progress on GET /api/renders/{id} and /events. Refused in words when the render is not done, the suggestion has no draft clip, or the provider's plan is free (media uploads need Premium and up). The access URLs serve 30 days: asking again uploads anew.",
  auth: 'key',
  params: z.object({ renderId }),
  body: z.object({}),
  response: z.object({ success: z.literal(true), render: renderRecord }),
  otherResponses: {
    202: {
      description: 'queued (or already running): the render with its ready state',
      schema: z.object({ success: z.literal(true), render: renderRecord }),
    },
  },
});

const mediaTool = z.object({
  path: z.string(),
  /** setting: FFMPEG_PATH / FFPROBE_PATH (environment or config.json); path: found on PATH; npm: the binary shipped with the app. */
  source: z.enum(['setting', 'path', 'npm']),
  /** The program's own words (`ffmpeg -version`); null when it did not answer. */
  version: z.string().nullable(),
});
export type MediaToolInfo = z.infer<typeof mediaTool>;

export const getRenderingSetup = defineContract({
  method: 'get',
  path: '/api/settings/rendering',
  tag: 'renders',
  summary:
    'Clip rendering as set up: which FFmpeg and ffprobe are used (where found, version), the caption font, where renders are kept, the disk they use and the space left, and how long they are kept.',
  auth: 'key',
  response: z.object({
    success: z.literal(true),
    /** null: no FFmpeg found (renders are refused, saying so). */
    ffmpeg: mediaTool.nullable(),
    /** null: none found; files are then read with FFmpeg itself. */
    ffprobe: mediaTool.nullable(),
    font: z.object({ family: z.string(), file: z.string(), license: z.string() }),
    storage: z.object({
      dir: z.string(),
      bytes: z.number().int(),
      renders: z.number().int(),
      /** Space left on that disk; null when it could not be read. */
      freeBytes: z.number().nullable(),
      keptDays: z.number().int(),
    }),
  }),
});
export type RenderingSetup = z.infer<typeof getRenderingSetup.response>;
