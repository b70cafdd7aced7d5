import { hash } from 'node:crypto';

/**
 * JSON with object keys sorted, so the same item always hashes the same. Stored hashes depend on
 * this exact text (a redelivery after an upgrade must still hash alike): keys in UTF-16 code unit
 * order (Array.prototype.sort's), undefined members left out, other values as JSON.stringify
 * writes them. Built by concatenation: it runs for every webhook item.
 */
export function canonicalJson(value: unknown): string {
  // A flat record (a CRM item: strings, numbers, lists of them) in one native call: a key list as
  // JSON.stringify's replacer writes exactly those keys, in that order (it would apply to nested
  // objects too, so those take the walk below).
  if (isFlatRecord(value)) return JSON.stringify(value, Object.keys(value).sort());
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** An object whose values hold no object: no nested record, no list of records. */
function isFlatRecord(value: unknown): value is Record<string, unknown> {
  if (!isObject(value) || Array.isArray(value)) return false;
  for (const member of Object.values(value)) {
    if (!isObject(member)) continue;
    if (!Array.isArray(member) || member.some(isObject)) return false;
  }
  return true;
}

/** A hash of the item's content (key order does not matter). */
export function itemHash(item: Record<string, unknown>): string {
  return hash('sha256', canonicalJson(item), 'hex').slice(0, 32);
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
