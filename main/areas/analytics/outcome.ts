import type { PlatformOutcome, RunStatus } from '../../../shared/api/analytics.js';

export interface RunTally {
  outcomes: readonly PlatformOutcome[];
  /** Why the post phase stopped early (history unreadable, provider down), else null. */
  postsError: string | null;
  postsCollected: number;
  postsFailed: number;
}

export interface RunVerdict {
  status: Exclude<RunStatus, 'running'>;
  error_code: 'COLLECTION_FAILED' | null;
  error: string | null;
}

/**
 * succeeded: every platform and every post read. failed (COLLECTION_FAILED): nothing at all
 * could be collected. partial: anything in between. One platform failing never stops the
 * others (DESIGN §6.5); it makes the run partial.
 */
export function judgeRun(tally: RunTally): RunVerdict {
  const failedPlatforms = tally.outcomes.filter((outcome) => outcome.status === 'failed');
  const okPlatforms = tally.outcomes.length - failedPlatforms.length;
  // Platforms that failed the same way are named together: "microblog, socialnet: token expired".
  const byError = new Map<string, string[]>();
  for (const outcome of failedPlatforms) {
    const error = outcome.error ?? 'failed';
    byError.set(error, [...(byError.get(error) ?? []), outcome.platform]);
  }
  const problems = [
    ...[...byError].map(([error, platforms]) => `${platforms.join(', ')}: ${error}`),
    ...(tally.postsError ? [`posts: ${tally.postsError}`] : []),
    ...(tally.postsFailed > 0 ? [`${tally.postsFailed} post(s) could not be read`] : []),
  ];
  if (okPlatforms === 0 && tally.postsCollected === 0) {
    return {
      status: 'failed',
      error_code: 'COLLECTION_FAILED',
      error: problems.length > 0 ? problems.join('; ') : 'nothing could be collected',
    };
  }
  if (problems.length === 0) return { status: 'succeeded', error_code: null, error: null };
  return { status: 'partial', error_code: null, error: problems.join('; ') };
}
