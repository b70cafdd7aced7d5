import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so the same item always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A hash of the item's content (key order does not matter). */
export function itemHash(item: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(item)).digest('hex').slice(0, 32);
}

/**
 * DESIGN §6.1: what makes two items identical: entity, id, event and a hash of the item. Identical
 * is not yet a redelivery: only when nothing touched the record in between (record-marks.ts).
 */
export function webhookItemKey(
  entity: string,
  event: string,
  item: { id: string } & Record<string, unknown>,
): string {
  return `${entity}:${item.id}:${event}:${itemHash(item)}`;
}
