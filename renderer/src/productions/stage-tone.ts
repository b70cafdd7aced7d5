import type { Tone } from '../components/StatusPill.js';

/** A production stage (spec §3.1) or an item's status as a pill's tone. */
export function stageTone(stage: string): Tone {
  switch (stage) {
    case 'Published':
    case 'Ready':
    case 'complete':
      return 'ok';
    case 'Failed':
    case 'revoked':
      return 'bad';
    case 'Recording':
    case 'Publishing':
    case 'Scheduled':
    case 'Queued':
    case 'live':
      return 'info';
    case 'Editing':
    case 'Review':
      return 'warn';
    default:
      return 'neutral';
  }
}
