import type { Migration } from '../../../kernel/migrations/index.js';
import { renders } from './029-renders.js';
import { renderReady } from './030-render-ready.js';

/** The renders area's migrations, in the one global numbering: add the next free number, never reuse one. */
export const migrations: readonly Migration[] = [renders, renderReady];
