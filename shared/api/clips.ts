import { z } from 'zod';
import { clipPlatforms } from '../platforms.js';
import { LETTER } from '../portable-pattern.js';
import { clipTimeIssues, MAX_CLIP_TIME_S } from '../time-bounds.js';
import { defineContract, idString, NOT_BLANK_TEXT, queryInt } from './contract.js';

/** Longest transcript analysed (characters, ~330,000 words, well over a day of speech). */
export const MAX_TRANSCRIPT_CHARS = 2_000_000;
export const MAX_CLIPS = 20;
export const DEFAULT_MAX_CLIPS = 5;
/** Clip length bounds, seconds (DESIGN §6.6). */
export const CLIP_MIN_S = 15;
export const CLIP_MAX_S = 90;

export const clipPlatformName = z.enum(clipPlatforms.map((p) => p.name));

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
  }),
  response: z.object({
    success: z.literal(true),
    contentProductionId: z.string(),
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
        .trim()
        .max(2000, 'is longer than 2000 characters'),
      /** Seconds into the recording: 0 ≤ startTime < endTime ≤ 48 h (clipTimeIssues, shared/time-bounds.ts). */
      startTime: z.number({ error: 'must be a number of seconds' }).meta(clipTimeBounds),
      endTime: z.number({ error: 'must be a number of seconds' }).meta(clipTimeBounds),
      /** Default: "<m:ss–m:ss> <start of the quote>". */
      name: z
        .string()
        .regex(NOT_BLANK_TEXT, 'must not be empty')
        .trim()
        .max(255, 'is longer than 255 characters')
        .optional(),
      targetPlatforms: z.array(clipPlatformName).max(clipPlatforms.length).optional(),
    })
    .superRefine((body, ctx) => {
      for (const issue of clipTimeIssues(body.startTime, body.endTime)) {
        ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.problem });
      }
    }),
  response: z.object({
    success: z.literal(true),
    id: z.string(),
    name: z.string(),
    duration: z.number().int(),
    contentProductionId: z.string(),
    status: z.literal('Draft'),
    /** false: this draft (same content, quote and duration) already existed; its id is answered. */
    created: z.boolean(),
  }),
});

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
