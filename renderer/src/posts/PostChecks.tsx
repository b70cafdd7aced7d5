import { formatLocal } from '../format.js';

/** ISO times in the bridge's words (UTC) shown in the operator's zone. */
const localTimes = (message: string) =>
  message.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z/g, (iso) => formatLocal(iso));

/** A post's rule errors and warnings, as the composer and the reschedule dialog list them. */
export function PostChecks({
  errors,
  warnings,
  testId,
}: {
  errors: string[];
  warnings: string[];
  testId: string;
}) {
  if (errors.length === 0 && warnings.length === 0) return null;
  return (
    <ul className="posts-checks" data-testid={testId}>
      {errors.map((message) => (
        <li key={`e:${message}`} className="posts-check posts-check-error">
          {message}
        </li>
      ))}
      {warnings.map((message) => (
        <li key={`w:${message}`} className="posts-check posts-check-warn">
          {localTimes(message)}
        </li>
      ))}
    </ul>
  );
}
