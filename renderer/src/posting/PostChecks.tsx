/**
 * A post's rule errors and warnings that belong to no one field, as the composer and the
 * reschedule dialog list them below the form (the rest are at their field: FieldNotes). In words
 * already (post-words.ts).
 */
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
          {message}
        </li>
      ))}
    </ul>
  );
}
