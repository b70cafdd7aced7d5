import type { Migration } from '../../../kernel/migrations/index.js';
import { clipAnalyses } from './021-clip-analyses.js';
import { clipReviews } from './022-clip-reviews.js';
import { analysisTake } from './028-analysis-take.js';

/**
 * The clips area's own migrations, after the shipped 001–005 (main/kernel/migrations, never
 * edited) in the one global numbering: add the next free number, never reuse one.
 */
export const migrations: readonly Migration[] = [clipAnalyses, clipReviews, analysisTake];
