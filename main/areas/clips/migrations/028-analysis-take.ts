import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #39: an analysis keeps the take it was made of as it stood (reel, file path, frame rate,
 * audio, length, marks), copied like its file name (021) since the take's row may go: the exports
 * conform by reel and path, default to the take's rate and place its marks. Null before 028 and
 * for analyses of no take.
 */
export const analysisTake: Migration = {
  version: 28,
  name: 'clip-analysis-take',
  sql: `ALTER TABLE clip_analyses ADD COLUMN take_json TEXT;`,
};
