import type { Migration } from '../../../kernel/migrations/index.js';
import { takesAndMarks } from './023-takes-and-marks.js';
import { takeReelVideoAudio } from './027-take-reel-video-audio.js';

/**
 * The recorder area's own migrations, after the shipped 001–005 (main/kernel/migrations, never
 * edited) in the one global numbering: add the next free number, never reuse one.
 */
export const migrations: readonly Migration[] = [takesAndMarks, takeReelVideoAudio];
