import type { ErrorCode } from '../../../shared/api/contract.js';
import type { RuleIssue } from '../../../shared/post-rules.js';
import { PostsvcError } from '../../peers/postsvc.js';
import { AppError } from '../../kernel/app-error.js';
import { partialResultWords } from './partial-words.js';

/** The provider's code for "post id not found" (DESIGN §5.2: 404 with code 186). */
const POST_NOT_FOUND = 186;

/**
 * A provider failure as the bridge answers it (spec §7, DESIGN §4): 429 RATE_LIMIT with
 * Retry-After; AUTH_ERROR, INVALID_MEDIA, PLATFORM_ERROR as 500 with the provider's own
 * message in `details`. When the request asked for a provider post by id (`askedFor`), the
 * provider's 404 "post id not found" is 404 NOT_FOUND naming that field and id (DESIGN §5.2).
 */
export function postingError(error: unknown, askedFor?: { field: string; id: string }): unknown {
  if (!(error instanceof PostsvcError)) return error;
  if (askedFor && isUnknownPost(error)) {
    return AppError.notFound(
      `${askedFor.field}: the provider has no post ${askedFor.id} (never created, or deleted)`,
    );
  }
  if (error.code === 'RATE_LIMIT') {
    return new AppError('rate-limit', 'RATE_LIMIT', error.message, {
      details: error.providerMessage,
      retryAfterS: Math.max(1, Math.ceil(error.details.retryAfterS ?? 60)),
      cause: error,
    });
  }
  // Platforms that refused the post: their reasons are the message, not the provider's state.
  const platformsRefused = error.platformErrors.length > 0 ? { peerFailure: null } : {};
  if (error.created) {
    // Partly out: said per platform in words; the provider's post id is for integrators, in details.
    const posted = error.created.postIds.map((p) => p.platform);
    return new AppError(
      'peer',
      error.code satisfies ErrorCode,
      partialResultWords(posted, error.platformErrors),
      {
        details: { postsvcId: error.created.id, posted, providerMessage: error.providerMessage },
        cause: error,
        peerFailure: null,
      },
    );
  }
  return new AppError('peer', error.code satisfies ErrorCode, error.message, {
    details: error.providerMessage,
    cause: error,
    ...platformsRefused,
  });
}

/** The provider's 404 with code 186: it does not know the post id it was asked about. */
export function isUnknownPost(error: PostsvcError): boolean {
  const body = error.details.body;
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return error.status === 404 && code === POST_NOT_FOUND;
}

/**
 * The posting rules' failure as 400: INVALID_DATE for dates, INVALID_MEDIA for a platform's
 * media rule (DESIGN §6.8: refused before the provider is called), VALIDATION_ERROR with every
 * issue otherwise.
 */
export function ruleError(issues: readonly RuleIssue[]): AppError {
  const date = issues.find((issue) => issue.code === 'INVALID_DATE');
  if (date) return AppError.invalidDate(date.message);
  const media = issues.filter((issue) => issue.code === 'INVALID_MEDIA');
  if (media.length > 0) {
    return new AppError('validation', 'INVALID_MEDIA', media.map((issue) => issue.message).join('; '), {
      details: media.map(({ field, rule, message }) => ({ field, rule, message })),
    });
  }
  return AppError.validation(
    issues.map((issue) => issue.message).join('; '),
    issues.map(({ field, rule, message }) => ({ field, rule, message })),
  );
}

/** Retry of a post whose time has passed: it needs a new time, which only an edit gives (issue #14.3). */
export function duePassedError(at: Date): AppError {
  return AppError.invalidDate(
    `scheduleDate: this post was due at ${at.toISOString()}, which has passed; edit it to give it a new time`,
  );
}
