/**
 * CSV (RFC 4180) of what a panel shows. Text that a spreadsheet would run as a formula
 * (starting with = + - @) is prefixed with an apostrophe: post texts come from outside.
 */
export interface CsvColumn<Row> {
  label: string;
  value: (row: Row) => string | number | null;
}

function cell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((c) => cell(c.label)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(c.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** `analytics-<what>-<start>_<end>.csv` */
export function csvFilename(what: string, start: string, end: string): string {
  return `analytics-${what}-${start}_${end}.csv`;
}
