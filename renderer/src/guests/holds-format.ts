/** The template variables a held email lacks, as the operator reads them: "date, time". */
export function missingText(missing: readonly string[]): string {
  return missing.length === 0 ? 'nothing' : missing.join(', ');
}

/**
 * What a held workflow waits for, in a line: its missing values, or, for one CRM catch-up found
 * late (DESIGN §6.9), the operator's decision.
 */
export function waitingText(hold: { reason: 'missing-values' | 'late'; missing: readonly string[] }): string {
  return hold.reason === 'late' ? 'your decision (found late)' : missingText(hold.missing);
}
