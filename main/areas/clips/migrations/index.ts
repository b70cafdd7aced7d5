import type { Migration } from '../../../kernel/migrations/index.js';
import { clipAnalyses } from './021-clip-analyses.js';
import { clipReviews } from './022-clip-reviews.js';
import { analysisTake } from './028-analysis-take.js';
import { analysesByProduction } from './031-analyses-by-production.js';

/**
 * The clips area's migrations, in the one numbering all areas and the kernel share: add the next
 * free number, never reuse one, never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [
  clipAnalyses,
  clipReviews,
  analysisTake,
  analysesByProduction,
];
