import { z } from 'zod';
import { clipPlatformNames } from '../clip-fit.js';
import { LETTER } from '../portable-pattern.js';
import { edlFrameRates } from '../frame-rates.js';
import { clipTimeIssues, MAX_CLIP_TIME_S } from '../time-bounds.js';
import { defineContract, idString, NOT_BLANK_TEXT, queryInt } from './contract.js';

/** Longest transcript analysed (characters, ~330,000 words, well over a day of speech). */
export const MAX_TRANSCRIPT_CHARS = 2_000_000;
export const MAX_CLIPS = 20;
export const DEFAULT_MAX_CLIPS = 5;
/** Clip length bounds, seconds (DESIGN §6.6). */
export const CLIP_MIN_S = 15;
export const CLIP_MAX_S = 90;

export const clipPlatformName = z.enum(clipPlatformNames);

export const transcriptFormat = z.enum(['srt', 'vtt', 'stamped', 'plain']);
/** The named signals a clip window is scored on (DESIGN §6.6), and the penalties. */
export const clipSignalNames = [
  'hook',
  'question',
  'numbers',
  'contrast',
  'openLoop',
  'emotion',
  'quote',
  'coherence',
  'shape',
] as const;
export const clipPenaltyNames = ['filler', 'disfluency', 'danglingStart'] as const;
export const clipSignalName = z.enum([...clipSignalNames, ...clipPenaltyNames]);

export const clipSignal = z.object({
  name: clipSignalName,
  /** signal: adds to the score; penalty: takes from it. */
  kind: z.enum(['signal', 'penalty']),
  /** Strength of the signal 0..1 (penalties: points taken off). */
  score: z.number(),
  /** Points it moved the raw score (negative for penalties), before calibration to confidence. */
  contribution: z.number(),
  /** What was found: phrases, numbers, emotional words, keywords. */
  evidence: z.array(z.string()),
});
export type ClipSignal = z.infer<typeof clipSignal>;

export const suggestedClip = z.object({
  hookQuote: z.string(),
  /** Seconds from the start of the recording (floats). */
  startTime: z.number(),
  endTime: z.number(),
  duration: z.number(),
  confidence: z.number().min(0).max(1),
  reason: z.string(),
  /** Keywords of the topic cluster the clip is on, e.g. "pricing, churn, discounts". */
  topic: z.string(),
  topicId: z.number().int(),
  /** The clip's own most distinctive words. */
  keywords: z.array(z.string()),
  signals: z.array(clipSignal),
  fitsPlatforms: z.array(clipPlatformName),
  speakers: z.array(z.string()),
  sentiment: z.object({ score: z.number(), label: z.enum(['positive', 'negative', 'mixed', 'neutral']) }),
  /** The live marks (DESIGN §6.7) that pinned this clip; empty for a clip found by scoring. */
  marks: z.array(z.object({ id: z.number().int(), offsetS: z.number(), label: z.string().nullable() })),
});
export type SuggestedClip = z.infer<typeof suggestedClip>;

export const transcriptTopic = z.object({
  id: z.number().int(),
  keywords: z.array(z.string()),
  seconds: z.number(),
  /** Share of the transcript's time on this topic, 0..1. */
  share: z.number(),
  segments: z.array(z.object({ start: z.number(), end: z.number() })),
});
export type TranscriptTopic = z.infer<typeof transcriptTopic>;

const nonBlank = (value: string) => value.trim() !== '';
/** clipTimeIssues checks these (its own messages); stated here for /openapi.json. */
const clipTimeBounds = { minimum: 0, maximum: MAX_CLIP_TIME_S, description: 'seconds into the recording' };
const crmId = idString.meta({ description: 'the id of a ContentProduction record in the CRM' });

export const analyzeClips = defineContract({
  method: 'post',
  path: '/clips/analyze',
  tag: 'clips',
  summary:
    'Suggest 15–90 s clips from a transcript (plain text, SRT, WebVTT or [hh:mm:ss] lines), offline: hooks, quotes, emotion (AFINN), topics (TF-IDF).',
  auth: 'key',
  body: z.object({
    contentProductionId: crmId,
    transcript: z
      .string({ error: 'must be a string (the transcript text)' })
      .max(MAX_TRANSCRIPT_CHARS, {
        error: (issue) =>
          `is too long: ${typeof issue.input === 'string' ? issue.input.length.toLocaleString('en-US') : 'more than'} characters, the limit is ${MAX_TRANSCRIPT_CHARS.toLocaleString('en-US')}`,
      })
      .refine(nonBlank, 'is empty (no text)')
      .meta({ pattern: `[${LETTER}]`, description: 'the transcript; it must hold words (letters)' }),
    maxClips: z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(MAX_CLIPS, `must be at most ${MAX_CLIPS}`)
      .default(DEFAULT_MAX_CLIPS),
    takeId: z
      .number({ error: 'must be a number (the id of a take, GET /api/recorder/takes)' })
      .int('must be a whole number')
      .positive('must be a take id (1 or more)')
      .optional()
      .meta({ description: 'the recorder take the transcript is of: each of its marks pins a clip' }),
  }),
  response: z.object({
    success: z.literal(true),
    contentProductionId: z.string(),
    /** The stored analysis (exports, review), kept until `expiresAt` (30 days). */
    analysisId: z.string(),
    expiresAt: z.string(),
    take: z.object({ id: z.number().int(), name: z.string(), fileName: z.string() }).nullable(),
    /** stamped: times come from the transcript; estimated: plain text read at 150 words per minute. */
    timing: z.enum(['stamped', 'estimated']),
    format: transcriptFormat,
    suggestedClips: z.array(suggestedClip),
    topics: z.array(transcriptTopic),
    stats: z.object({
      words: z.number().int(),
      sentences: z.number().int(),
      durationS: z.number(),
      windowsScored: z.number().int(),
    }),
    warnings: z.array(z.string()),
  }),
});
export type AnalyzeClipsResponse = z.infer<typeof analyzeClips.response>;

/** An analysis id as POST /clips/analyze answers it. */
export const analysisId = z
  .string()
  .regex(/^an_[A-Za-z0-9_-]{16}$/, 'is not an analysis id (an_ and 16 characters, from POST /clips/analyze)');
/** A suggestion of an analysis by its number, 1 for the first (as the Clips page ranks them). */
export const clipNumber = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(MAX_CLIPS, `must be at most ${MAX_CLIPS}`);
export const analysisClipParams = z.object({ analysisId, n: clipNumber });

const draftName = z
  .string()
  .regex(NOT_BLANK_TEXT, 'must not be empty')
  .max(255, 'is longer than 255 characters')
  .trim();
const draftTargets = z.array(clipPlatformName).max(clipPlatformNames.length);

const draftResponse = z.object({
  success: z.literal(true),
  id: z.string(),
  name: z.string(),
  duration: z.number().int(),
  hookQuote: z.string(),
  contentProductionId: z.string(),
  status: z.literal('Draft'),
  /** false: this draft (same content, quote and duration) already existed; its id is answered. */
  created: z.boolean(),
  /** The draft checked by the one fit rule, its ratio now known: the activity feed's words. */
  fit: z.object({ fits: z.boolean(), problems: z.array(z.string()), message: z.string().nullable() }),
});

export const createDraftClip = defineContract({
  method: 'post',
  path: '/clips/create-draft',
  tag: 'clips',
  summary:
    'Create a Draft Clip in the CRM from a suggestion (name, hookQuote, duration in whole seconds, contentProductionId); a repeat answers the existing draft. Times in seconds: 0 ≤ startTime < endTime ≤ 172800 (48 h).',
  auth: 'key',
  body: z
    .object({
      contentProductionId: crmId,
      hookQuote: z
        .string()
        .regex(NOT_BLANK_TEXT, 'is required')
        .max(2000, 'is longer than 2000 characters')
        .trim(),
      /** Seconds into the recording: 0 ≤ startTime < endTime ≤ 48 h (clipTimeIssues, shared/time-bounds.ts). */
      startTime: z.number({ error: 'must be a number of seconds' }).meta(clipTimeBounds),
      endTime: z.number({ error: 'must be a number of seconds' }).meta(clipTimeBounds),
      /** Default: "<m:ss–m:ss> <start of the quote>". */
      name: draftName.optional(),
      targetPlatforms: draftTargets.optional(),
    })
    .superRefine((body, ctx) => {
      for (const issue of clipTimeIssues(body.startTime, body.endTime)) {
        ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.problem });
      }
    }),
  response: draftResponse,
});

export const draftFromAnalysis = defineContract({
  method: 'post',
  path: '/clips/analyses/:analysisId/clips/:n/draft',
  tag: 'clips',
  summary:
    "Create a Draft Clip in the CRM from suggestion n of a stored analysis, as reviewed: its in/out, duration and hookQuote; the in/out and the draft's id are kept beside the analysis. A repeat answers the existing draft; a draft of the same moment made from another analysis is refused with 409, naming it.",
  auth: 'key',
  params: analysisClipParams,
  body: z.object({
    /** Default: "<m:ss–m:ss> <start of the quote>". */
    name: draftName.optional(),
    /** Default: the platforms the reviewed clip fits by length. */
    targetPlatforms: draftTargets.optional(),
  }),
  response: draftResponse,
});

/** A suggestion as reviewed: its in/out nudged by whole sentences, kept beside the analysis. */
export const reviewedClip = z.object({
  n: z.number().int(),
  startTime: z.number(),
  endTime: z.number(),
  duration: z.number(),
  hookQuote: z.string(),
  fitsPlatforms: z.array(clipPlatformName),
  sentences: z.number().int(),
  /** Whether in or out moved from the suggestion. */
  nudged: z.boolean(),
});
export type ReviewedClip = z.infer<typeof reviewedClip>;

/** A Draft Clip made from a suggestion: where (analysis, suggestion n) and of which moment. */
export const keptDraft = z.object({
  clipId: z.string(),
  analysisId: z.string(),
  n: z.number().int(),
  startTime: z.number(),
  endTime: z.number(),
});

export const listClipAnalyses = defineContract({
  method: 'get',
  path: '/clips/analyses',
  tag: 'clips',
  summary:
    "Recent stored analyses, newest first (all, or one production's): their take, when, how many suggestions, and the Draft Clips made from them (issue #44.3: the Clips page reopens one as it was left).",
  auth: 'key',
  query: z.object({
    contentProductionId: z.string().min(1).max(64).optional(),
    limit: queryInt(1, 100).default(20),
  }),
  response: z.object({
    success: z.literal(true),
    analyses: z.array(
      z.object({
        analysisId: z.string(),
        contentProductionId: z.string(),
        take: z.object({ id: z.number().int(), name: z.string(), fileName: z.string() }).nullable(),
        createdAt: z.string(),
        expiresAt: z.string(),
        suggestions: z.number().int(),
        drafts: z.array(keptDraft),
      }),
    ),
  }),
});

export const getClipAnalysis = defineContract({
  method: 'get',
  path: '/clips/analyses/:analysisId',
  tag: 'clips',
  summary:
    'A stored analysis as it was left: what POST /clips/analyze answered, and per suggestion its review (in/out as nudged; null: never touched) and its draft — its own, or one made of the same moment from another analysis (then a second draft is refused with 409).',
  auth: 'key',
  params: z.object({ analysisId }),
  response: analyzeClips.response.extend({
    kept: z.array(
      z.object({ n: z.number().int(), reviewed: reviewedClip.nullable(), draft: keptDraft.nullable() }),
    ),
  }),
});

/** How far one nudge moves an edge, in whole sentences. */
export const MAX_NUDGE_SENTENCES = 20;

export const nudgeClip = defineContract({
  method: 'post',
  path: '/clips/analyses/:analysisId/clips/:n/nudge',
  tag: 'clips',
  summary:
    "Move a suggestion's in or out by whole sentences (negative: earlier); its duration and hookQuote follow. The clip stays 15–90 s.",
  auth: 'key',
  params: analysisClipParams,
  body: z.object({
    edge: z.enum(['in', 'out'], { error: 'must be "in" or "out"' }),
    sentences: z
      .number({ error: 'must be a number of sentences' })
      .int('must be a whole number of sentences')
      .min(-MAX_NUDGE_SENTENCES, `must be at least -${MAX_NUDGE_SENTENCES}`)
      .max(MAX_NUDGE_SENTENCES, `must be at most ${MAX_NUDGE_SENTENCES}`),
  }),
  response: z.object({ success: z.literal(true), analysisId: z.string(), clip: reviewedClip }),
});

const speakerLabels = z
  .enum(['on', 'off'], { error: 'must be "on" or "off"' })
  .default('on')
  .meta({ description: 'speaker labels (HOST:, Dana:) as a prefix where the speaker changes' });
const fpsChoice = z
  .enum(edlFrameRates, { error: `must be one of ${edlFrameRates.join(', ')}` })
  .optional()
  .meta({ description: "frame rate of the timecodes; default: the take's own (from OBS), else 25" });
const eventOrder = z
  .enum(['rank', 'source'], { error: 'must be "rank" or "source"' })
  .default('rank')
  .meta({ description: 'rank: one event per suggestion as ranked; source: in the order recorded' });
/** How an analysis is laid out as an editor's timeline. */
const timelineQuery = z.object({ fps: fpsChoice, order: eventOrder });
const captionQuery = z.object({ speakers: speakerLabels });

const captionRulesSummary =
  'Cues of at most two lines of 42 characters, 5/6 s to 7 s, 20 characters a second where the speech leaves room (X-Caption-Cues-Over-Cps counts the cues still faster), speaker labels where the speaker changes.';

export const getClipSrt = defineContract({
  method: 'get',
  path: '/clips/analyses/:analysisId/clips/:n/srt',
  tag: 'clips',
  summary: `A suggestion's lines as SRT captions, re-timed to start at 0 (its reviewed in/out). ${captionRulesSummary}`,
  auth: 'key',
  params: analysisClipParams,
  query: captionQuery,
  response: z.string(),
  responseType: 'application/x-subrip',
});

export const getClipVtt = defineContract({
  method: 'get',
  path: '/clips/analyses/:analysisId/clips/:n/vtt',
  tag: 'clips',
  summary: `A suggestion's lines as WebVTT captions, re-timed to start at 0 (its reviewed in/out). ${captionRulesSummary}`,
  auth: 'key',
  params: analysisClipParams,
  query: captionQuery,
  response: z.string(),
  responseType: 'text/vtt',
});

export const getTimelineSrt = defineContract({
  method: 'get',
  path: '/clips/analyses/:analysisId/srt',
  tag: 'clips',
  summary: `Captions of the whole EDL timeline as SRT: each clip's at its record time, the timeline starting at 01:00:00,000 (01:00:00:00). ${captionRulesSummary}`,
  auth: 'key',
  params: z.object({ analysisId }),
  query: timelineQuery.extend(captionQuery.shape),
  response: z.string(),
  responseType: 'application/x-subrip',
});

export const getTimelineVtt = defineContract({
  method: 'get',
  path: '/clips/analyses/:analysisId/vtt',
  tag: 'clips',
  summary: `Captions of the whole EDL timeline as WebVTT, from 01:00:00.000. ${captionRulesSummary}`,
  auth: 'key',
  params: z.object({ analysisId }),
  query: timelineQuery.extend(captionQuery.shape),
  response: z.string(),
  responseType: 'text/vtt',
});

export { edlFrameRates, type EdlFrameRate } from '../frame-rates.js';

const timelineFile = 'X-Frame-Rate says the rate used and why (take, request or default).';

export const getAnalysisEdl = defineContract({
  method: 'get',
  path: '/clips/analyses/:analysisId/edl',
  tag: 'clips',
  summary: `The analysis as a CMX3600 EDL: one cut per suggestion (reviewed in/out), the take's reel (AX without a take), AA/V, B or V by the take's audio, a comment naming the clip, live marks as LOC lines; record from 01:00:00:00; 29.97 and 59.94 drop-frame. ${timelineFile}`,
  auth: 'key',
  params: z.object({ analysisId }),
  query: timelineQuery,
  response: z.string(),
  responseType: 'text/plain',
});

export const getAnalysisOtio = defineContract({
  method: 'get',
  path: '/clips/analyses/:analysisId/otio',
  tag: 'clips',
  summary: `The EDL's timeline as OpenTimelineIO JSON (.otio, Timeline.1): video and audio tracks, each clip on the take's file URL, live marks as markers. ${timelineFile}`,
  auth: 'key',
  params: z.object({ analysisId }),
  query: timelineQuery,
  response: z.string(),
  responseType: 'application/json',
});

export const getAnalysisXml = defineContract({
  method: 'get',
  path: '/clips/analyses/:analysisId/xml',
  tag: 'clips',
  summary: `The EDL's timeline as Final Cut Pro 7 XML (xmeml 4, for Premiere Pro and DaVinci Resolve): video and audio tracks, file://localhost pathurl, clip names, markers. ${timelineFile}`,
  auth: 'key',
  params: z.object({ analysisId }),
  query: timelineQuery,
  response: z.string(),
  responseType: 'application/xml',
});

const exportFile = z.object({ fileName: z.string(), path: z.string() });
const captionCounts = z.object({
  cues: z.number().int(),
  /** Cues faster than 20 characters a second: the speech left no room to show them longer. */
  overCps: z.number().int(),
  shortestS: z.number().nullable(),
});

export const getAnalysisExports = defineContract({
  method: 'get',
  path: '/clips/analyses/:analysisId/exports',
  tag: 'clips',
  summary:
    "What the editor's exports of an analysis hold before downloading them: the frame rate used and why, the reel, the audio channels, the file names, the caption counts and every warning (no take, audio assumed, clips past the end of the take, a rate other than the take's).",
  auth: 'key',
  params: z.object({ analysisId }),
  query: timelineQuery.extend(captionQuery.shape),
  response: z.object({
    success: z.literal(true),
    analysisId: z.string(),
    fps: z.object({
      used: z.enum(edlFrameRates),
      /** take: the take's own rate (OBS); request: asked for; default: 25, the take's rate being unknown. */
      source: z.enum(['take', 'request', 'default']),
      /** The take's own rate; null when unknown or not one of the eight. */
      take: z.enum(edlFrameRates).nullable(),
    }),
    order: z.enum(['rank', 'source']),
    reel: z.string(),
    audio: z.object({ channels: z.number().int(), code: z.enum(['AA/V', 'B', 'V']), assumed: z.boolean() }),
    take: z
      .object({
        id: z.number().int(),
        name: z.string(),
        fileName: z.string(),
        filePath: z.string().nullable(),
      })
      .nullable(),
    files: z.object({
      edl: exportFile,
      otio: exportFile,
      xml: exportFile,
      srt: exportFile,
      vtt: exportFile,
      clips: z.array(z.object({ n: z.number().int(), srt: exportFile, vtt: exportFile })),
    }),
    captions: z.object({
      timeline: captionCounts,
      clips: z.array(captionCounts.extend({ n: z.number().int() })),
    }),
    warnings: z.array(z.string()),
  }),
});
export type AnalysisExports = z.infer<typeof getAnalysisExports.response>;

export const contentSummary = z.object({
  id: z.string(),
  name: z.string(),
  showName: z.string().nullable(),
  stage: z.string().nullable(),
});
export type ContentSummary = z.infer<typeof contentSummary>;

export const listCrmContent = defineContract({
  method: 'get',
  path: '/api/crm/content',
  tag: 'clips',
  summary: 'ContentProduction records from the CRM (newest first, paged): id, name, showName, stage.',
  auth: 'key',
  query: z.object({
    limit: queryInt(1, 200).default(50),
    offset: queryInt(0, 1_000_000).default(0),
  }),
  response: z.object({
    success: z.literal(true),
    total: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
    data: z.array(contentSummary),
  }),
});

/** `m:ss`, or `h:mm:ss` past an hour, for clip times shown to people. */
export function formatClipTime(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
