import type { ErrorCode } from '../../../shared/api/contract.js';
import type { RuleIssue } from '../../../shared/post-rules.js';
import { PostsvcError } from '../../peers/postsvc.js';
import { AppError } from '../../kernel/app-error.js';

/**
 * A provider failure as the bridge answers it (spec §7, DESIGN §4): 429 RATE_LIMIT with
 * Retry-After; AUTH_ERROR, INVALID_MEDIA, PLATFORM_ERROR as 500 with the provider's own
 * message in `details`.
 */
export function postingError(error: unknown): unknown {
  if (!(error instanceof PostsvcError)) return error;
  if (error.code === 'RATE_LIMIT') {
    return AppError.tooMany(
      'RATE_LIMIT',
      error.message,
      error.details.retryAfterS ?? 60,
      error.providerMessage,
    );
  }
  const created = error.created
    ? `; post ${error.created.id} was created for ${error.created.postIds.map((p) => p.platform).join(', ')} (cancel it with /postsvc/delete if it should not go out alone)`
    : '';
  return AppError.peer(
    error.code satisfies ErrorCode,
    `${error.message}${created}`,
    error.providerMessage,
    error,
  );
}

/** The posting rules' first failure as 400: INVALID_DATE for dates, VALIDATION_ERROR with every issue otherwise. */
export function ruleError(issues: readonly RuleIssue[]): AppError {
  const date = issues.find((issue) => issue.code === 'INVALID_DATE');
  if (date) return AppError.invalidDate(date.message);
  return AppError.validation(
    issues.map((issue) => issue.message).join('; '),
    issues.map(({ field, rule, message }) => ({ field, rule, message })),
  );
}
