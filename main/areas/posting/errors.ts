import type { RuleIssue } from '../../../shared/post-rules.js';
import { AppError } from '../../kernel/app-error.js';

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
