/** The template variables a held email lacks, as the operator reads them: "date, time". */
export function missingText(missing: readonly string[]): string {
  return missing.length === 0 ? 'nothing' : missing.join(', ');
}
