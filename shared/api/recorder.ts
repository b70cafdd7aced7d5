import { z } from 'zod';
import { edlFrameRates } from '../frame-rates.js';
import { recorderFilenameJsonSchema } from '../recorder-filename.js';
import { defineContract, idString, queryInt } from './contract.js';

/**
 * Where the held name stands with the recorder (DESIGN §6.7): `applied` (OBS read it back equal),
 * `pending` (OBS not connected: applied on connect), `failed` (OBS's words in `failure`), `held`
 * (no recorder configured: kept for Companion and the CRM to read).
 */
export const filenameStates = ['applied', 'pending', 'failed', 'held'] as const;
export type FilenameState = (typeof filenameStates)[number];

const filenameStatus = {
  /** The name the next recording gets (with `_T02`… when the one asked for was used by a take). */
  filename: z.string().nullable(),
  /** The name as the operator asked for it (differs from `filename` when a take suffix was added). */
  requested: z.string().nullable(),
  setAt: z.string().nullable(),
  /** The production the held name was given from: its takes belong to it (null: none said). */
  contentProductionId: z.string().nullable(),
  /** null when no name is held. */
  state: z.enum(filenameStates).nullable(),
  /** OBS's words when `state` is failed. */
  failure: z.string().nullable(),
  /** The name OBS will actually use, as last read back from it (null: no recorder, or never read). */
  obsFilename: z.string().nullable(),
  /** When the bridge started, while no name was set since: the held name was cleared then. */
  clearedAt: z.string().nullable(),
  /** The name a restart of the bridge cleared, and when (from the activity log), until a new one is set. */
  clearedByRestart: z.object({ filename: z.string(), clearedAt: z.string() }).nullable(),
};

export const setRecorderFilename = defineContract({
  method: 'post',
  path: '/api/recorder/filename',
  tag: 'recorder',
  summary:
    'Set the filename for the next recording (kept in memory); with a recorder configured, applied to OBS and read back. With `contentProductionId`, the takes recorded under that name belong to that production.',
  auth: 'key',
  body: z.object({
    filename: z.string().meta(recorderFilenameJsonSchema),
    /** The ContentProduction the name comes from: the takes recorded under it belong to it (issue #42.2). */
    contentProductionId: idString.optional(),
  }),
  // Just set: the name, as asked and when, are there (an integrator's client reads them as strings).
  response: z.object({
    success: z.literal(true),
    ...filenameStatus,
    filename: z.string(),
    requested: z.string(),
    setAt: z.string(),
  }),
});
export type RecorderFilenameSet = z.infer<typeof setRecorderFilename.response>;

export const getRecorderFilename = defineContract({
  method: 'get',
  path: '/api/recorder/filename',
  tag: 'recorder',
  summary: 'The filename for the next recording (null when none is set), where it stands with the recorder.',
  auth: 'key',
  response: z.object({ success: z.literal(true), ...filenameStatus }),
});
export type RecorderFilenameStatus = z.infer<typeof getRecorderFilename.response>;

export const recorderConnection = z.object({
  /** A recorder is configured (RECORDER_OBS_URL, or the sandbox's simulated OBS). */
  configured: z.boolean(),
  /** The simulated OBS (sandbox): the Recorder page may drive it. */
  simulated: z.boolean(),
  url: z.string().nullable(),
  connected: z.boolean(),
  /** When the connection was made, or lost. */
  since: z.string().nullable(),
  /** OBS's words for the last failure to connect or the close. */
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});

export const recorderRecording = z.object({
  active: z.boolean(),
  paused: z.boolean(),
  /** When the take being recorded started (estimated from OBS's outputDuration when joined late). */
  since: z.string().nullable(),
  takeId: z.number().int().nullable(),
  takeName: z.string().nullable(),
});

export const getRecorderStatus = defineContract({
  method: 'get',
  path: '/api/recorder/status',
  tag: 'recorder',
  summary: 'The recorder: connection to OBS, recording or not (since when), and the next filename.',
  auth: 'key',
  response: z.object({
    success: z.literal(true),
    connection: recorderConnection,
    recording: recorderRecording,
    filename: z.object(filenameStatus),
  }),
});
export type RecorderStatus = z.infer<typeof getRecorderStatus.response>;

export const recorderMark = z.object({
  id: z.number().int(),
  label: z.string().nullable(),
  /** Wall-clock time of the mark. */
  at: z.string(),
  takeId: z.number().int().nullable(),
  /**
   * Seconds from the take's start on its file, pauses excluded: the time since OBS's STARTED (its
   * outputDuration lags the file by the encoder's delay); null without a take.
   */
  offsetS: z.number().nullable(),
});
export type RecorderMark = z.infer<typeof recorderMark>;

export const recorderTake = z.object({
  id: z.number().int(),
  /** The name OBS recorded under (FilenameFormatting). */
  name: z.string(),
  /** The file as OBS reported it (RecordStateChanged outputPath); null when the stop was not seen. */
  filePath: z.string().nullable(),
  startedAt: z.string(),
  /** null while recording. */
  stoppedAt: z.string().nullable(),
  /** Seconds recorded, pauses excluded (STARTED to STOPPING: the file's length); null while recording. */
  durationS: z.number().nullable(),
  /** false: the bridge was not connected when it stopped (times are from reconnecting). */
  stopSeen: z.boolean(),
  /**
   * The take's reel for an editor's conform (EDL): 8 letters and digits, unique among the studio's
   * takes and never changed: the day it started (UTC, YYMMDD) and its number that day in base 36.
   */
  reel: z.string(),
  /** What OBS recorded at (GetVideoSettings when the take started); null when OBS did not say. */
  video: z
    .object({
      fpsNumerator: z.number().int(),
      fpsDenominator: z.number().int(),
      width: z.number().int(),
      height: z.number().int(),
    })
    .nullable(),
  /** The video's rate as an editor's timeline names it (29.97 for 30000/1001); null when none of those. */
  frameRate: z.enum(edlFrameRates).nullable(),
  /** Audio channels of the file's first audio track (0: none), read with ffprobe; null when the bridge could not read the file. */
  audioChannels: z.number().int().nullable(),
  /** The ContentProduction its name was given from (POST /api/recorder/filename); null: not linked. */
  contentProductionId: z.string().nullable().default(null),
  marks: z.array(recorderMark),
});
export type RecorderTake = z.infer<typeof recorderTake>;

export const listRecorderTakes = defineContract({
  method: 'get',
  path: '/api/recorder/takes',
  tag: 'recorder',
  summary:
    'Takes recorded (newest first, the one recording included) with their marks, and marks made with no take.',
  auth: 'key',
  query: z.object({ limit: queryInt(1, 200).default(50) }),
  response: z.object({
    success: z.literal(true),
    takes: z.array(recorderTake),
    /** Marks made while nothing was recording, newest first. */
    looseMarks: z.array(recorderMark),
  }),
});

export const addRecorderMark = defineContract({
  method: 'post',
  path: '/api/recorder/marks',
  tag: 'recorder',
  summary:
    'Mark a moment of the take being recorded (its position on the file: the time since OBS said it started, pauses excluded); with no take, the wall-clock time.',
  auth: 'key',
  body: z.object({ label: z.string().max(200).trim().optional() }),
  response: z.object({
    success: z.literal(true),
    mark: recorderMark,
    takeName: z.string().nullable(),
    /** Why the mark belongs to no take; null when it has one. */
    note: z.string().nullable(),
  }),
});

/** A mark by its id (from GET /api/recorder/takes). */
const markParams = z.object({
  markId: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(Number.MAX_SAFE_INTEGER, 'is not a mark id'),
});

export const renameRecorderMark = defineContract({
  method: 'put',
  path: '/api/recorder/marks/:markId',
  tag: 'recorder',
  summary:
    "Rename a mark (an empty label leaves it unlabelled): editor exports and later clip analyses use the new label. 404 NOT_FOUND for no such mark; with `previousLabel`, 409 CONFLICT when the mark's label is no longer that one (renamed meanwhile), naming the label it has.",
  auth: 'key',
  params: markParams,
  body: z.object({
    label: z.string().max(200).trim(),
    /** The label as the client showed it (null: none): guards against overwriting a rename made meanwhile. */
    previousLabel: z.string().max(200).nullable().optional(),
  }),
  response: z.object({ success: z.literal(true), mark: recorderMark }),
});

export const deleteRecorderMark = defineContract({
  method: 'delete',
  path: '/api/recorder/marks/:markId',
  tag: 'recorder',
  summary:
    'Delete a mark: it no longer pins a clip in later analyses nor shows in editor exports. 404 NOT_FOUND for no such mark (or one already deleted).',
  auth: 'key',
  params: markParams,
  response: z.object({ success: z.literal(true), deleted: recorderMark }),
});

export const nextProduction = defineContract({
  method: 'get',
  path: '/api/recorder/next-production',
  tag: 'recorder',
  summary:
    "The next scheduled ContentProduction (the first whose scheduledDate is at most an hour ago or later: one being recorded now still counts) and the recording name the spec's rule gives it, YYYYMMDD_<name> from its scheduled day (UTC). Nothing is set: POST /api/recorder/filename sets it. 503 NOT_CONFIGURED without a CRM.",
  auth: 'key',
  response: z.object({
    success: z.literal(true),
    /** null when no production is scheduled from an hour ago on. */
    production: z.object({ id: z.string(), name: z.string(), scheduledDate: z.string() }).nullable(),
    filename: z.string().nullable(),
  }),
});
export type NextProduction = z.infer<typeof nextProduction.response>;
