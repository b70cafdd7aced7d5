import type { PostViewStatus } from '../../../shared/api/posting.js';
import { postingPlatforms, type PlatformKey } from '../../../shared/platforms.js';
import type { Tone } from '../components/StatusPill.js';

export const platformLabel = (key: string) => postingPlatforms[key as PlatformKey]?.label ?? key;

export const statusLabel: Record<PostViewStatus, string> = {
  draft: 'Draft',
  sending: 'Sending',
  checking: 'Checking',
  scheduled: 'Scheduled',
  published: 'Published',
  partial: 'Partly failed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const statusTone: Record<PostViewStatus, Tone> = {
  draft: 'neutral',
  sending: 'info',
  checking: 'warn',
  scheduled: 'info',
  published: 'ok',
  partial: 'warn',
  failed: 'bad',
  cancelled: 'neutral',
};

/** What a status means for the operator, as a tooltip. */
export const statusHelp: Record<PostViewStatus, string> = {
  draft: 'Not sent to the provider.',
  sending: 'The bridge is sending it to the provider now.',
  checking:
    'The provider did not confirm it; the bridge is checking the provider history and will not send it twice.',
  scheduled: 'Queued at the provider.',
  published: 'Out on the platform.',
  partial:
    'Out (or queued) on some platforms, refused on others: retry sends only the platforms that failed.',
  failed: 'Not posted: see the error, fix the cause and retry.',
  cancelled: 'Cancelled at the provider.',
};
