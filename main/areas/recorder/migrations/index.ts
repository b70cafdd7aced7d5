import type { Migration } from '../../../kernel/migrations/index.js';
import { takesAndMarks } from './023-takes-and-marks.js';
import { takeReelVideoAudio } from './027-take-reel-video-audio.js';
import { takeProduction } from './032-take-production.js';

/**
 * The recorder area's migrations, in the one numbering all areas and the kernel share: add the next
 * free number, never reuse one, never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [takesAndMarks, takeReelVideoAudio, takeProduction];
