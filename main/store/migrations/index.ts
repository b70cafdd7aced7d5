import { foundation } from './001-foundation.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Numbered migrations, applied in order once each. Never edit one that has shipped: add the
 * next number. Reserved: 002 social posting, 003 analytics, 004 broadcasts/publishing, 005 guests.
 */
export const migrations: Migration[] = [foundation];
