import { z } from 'zod';
import { recorderFilenameJsonSchema } from '../recorder-filename.js';
import { defineContract } from './contract.js';

export const setRecorderFilename = defineContract({
  method: 'post',
  path: '/api/recorder/filename',
  tag: 'recorder',
  summary: 'Set the filename for the next recording (kept in memory only).',
  auth: 'key',
  body: z.object({ filename: z.string().meta(recorderFilenameJsonSchema) }),
  response: z.object({ success: z.literal(true), filename: z.string() }),
});

export const getRecorderFilename = defineContract({
  method: 'get',
  path: '/api/recorder/filename',
  tag: 'recorder',
  summary:
    'The filename for the next recording, or null when none is set; then clearedByRestart names the name a restart of the bridge cleared, and when.',
  auth: 'key',
  response: z.object({
    success: z.literal(true),
    filename: z.string().nullable(),
    setAt: z.string().nullable(),
    /** Memory only (DESIGN §6.7): the name held before the bridge restarted, until a new one is set. */
    clearedByRestart: z.object({ filename: z.string(), clearedAt: z.string() }).nullable(),
  }),
});
