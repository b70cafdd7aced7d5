/**
 * EspoCRM sends datetimes as `YYYY-MM-DD HH:mm:ss` in UTC (no T, no Z) and dates as
 * `YYYY-MM-DD` (DESIGN §5.1). The bridge converts at the client boundary: everything past
 * the CRM client sees ISO 8601.
 */
const CRM_DATETIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/** Datetime attributes of the entities the bridge reads (spec §2 plus EspoCRM's own). */
export const crmDatetimeFields: ReadonlySet<string> = new Set([
  'createdAt',
  'modifiedAt',
  'scheduledDate',
  'scheduledAt',
  'startedAt',
  'publishedAt',
  'streamedAt',
]);

export function crmDatetimeToIso(value: string): string {
  const match = CRM_DATETIME.exec(value);
  return match ? `${match[1]}T${match[2]}.000Z` : value;
}

export function isoToCrmDatetime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time) || CRM_DATETIME.test(value)) return value;
  return new Date(time).toISOString().slice(0, 19).replace('T', ' ');
}

function mapFields(
  record: Record<string, unknown>,
  convert: (value: string) => string,
): Record<string, unknown> {
  // Keys, not entries: every webhook item passes here, and entries would build a pair per field.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const value = record[key];
    out[key] = typeof value === 'string' && crmDatetimeFields.has(key) ? convert(value) : value;
  }
  return out;
}

export const recordFromCrm = <T extends Record<string, unknown>>(record: T): T =>
  mapFields(record, crmDatetimeToIso) as T;
export const recordToCrm = (record: Record<string, unknown>): Record<string, unknown> =>
  mapFields(record, isoToCrmDatetime);
