import { badRequest, CrmError } from './errors.js';
import { attributeNames, type CrmEntityName } from './entities.js';
import type { CrmRecord } from './store.js';

/** EspoCRM's page size limit: a bigger `maxSize` is refused with 403. */
export const MAX_PAGE_SIZE = 200;
const DEFAULT_PAGE_SIZE = 20;

export interface WhereClause {
  type: string;
  attribute?: string;
  value?: unknown;
}

export interface ListParams {
  maxSize: number;
  offset: number;
  orderBy: string;
  order: 'asc' | 'desc';
  where: WhereClause[];
  select: string[] | null;
}

/**
 * Reads EspoCRM's list parameters from a qs-parsed query:
 * `maxSize`, `offset`, `orderBy`, `order`, `select=a,b`, and
 * `where[i][type|attribute|value]` (nested `and`/`or` groups take a list of clauses as value).
 */
export function parseListParams(entity: CrmEntityName, query: Record<string, unknown>): ListParams {
  const attributes = new Set(attributeNames(entity));
  const maxSize = intParam(query.maxSize, 'maxSize') ?? DEFAULT_PAGE_SIZE;
  if (maxSize > MAX_PAGE_SIZE) {
    throw new CrmError(403, `Max size should not exceed ${MAX_PAGE_SIZE}. Use offset and limit.`);
  }
  const offset = intParam(query.offset, 'offset') ?? 0;
  const orderBy = typeof query.orderBy === 'string' && query.orderBy !== '' ? query.orderBy : null;
  if (orderBy !== null && !attributes.has(orderBy))
    throw badRequest(`Bad orderBy: unknown attribute '${orderBy}'`);
  const orderParam = typeof query.order === 'string' ? query.order.toLowerCase() : undefined;
  if (orderParam !== undefined && orderParam !== 'asc' && orderParam !== 'desc') {
    throw badRequest(`Bad order: '${orderParam}' (asc or desc)`);
  }
  // EspoCRM's default list order is newest first; an explicit orderBy defaults to ascending.
  const order = orderParam ?? (orderBy === null ? 'desc' : 'asc');
  const select =
    typeof query.select === 'string' && query.select !== ''
      ? query.select.split(',').map((a) => a.trim())
      : null;
  for (const attribute of select ?? []) {
    if (!attributes.has(attribute)) throw badRequest(`Bad select: unknown attribute '${attribute}'`);
  }
  const where = listOf(query.where).map((clause) => parseClause(clause, attributes));
  return { maxSize, offset, orderBy: orderBy ?? 'createdAt', order, where, select };
}

/** Filters, sorts and pages; rows carry the insertion sequence that breaks ties stably. */
export function runList(
  rows: Array<{ seq: number; record: CrmRecord }>,
  params: ListParams,
): { total: number; list: CrmRecord[] } {
  const matching = rows.filter((row) => params.where.every((clause) => matches(row.record, clause)));
  const direction = params.order === 'asc' ? 1 : -1;
  matching.sort(
    (a, b) => direction * (compare(a.record[params.orderBy], b.record[params.orderBy]) || a.seq - b.seq),
  );
  const page = matching.slice(params.offset, params.offset + params.maxSize).map((row) => row.record);
  const list = params.select
    ? page.map((record) => {
        const picked: CrmRecord = { id: record.id };
        for (const attribute of params.select ?? []) picked[attribute] = record[attribute];
        return picked;
      })
    : page;
  return { total: matching.length, list };
}

function intParam(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw badRequest(`Bad ${name}: '${String(value)}'`);
  return n;
}

/** qs turns `where[0]..where[20]` into an array but larger indexes into an object. */
function listOf(value: unknown): unknown[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, v]) => v);
  }
  throw badRequest('Bad where: expected where[i][type], where[i][attribute], where[i][value]');
}

const VALUE_TYPES = new Set([
  'equals',
  'notEquals',
  'in',
  'notIn',
  'greaterThan',
  'lessThan',
  'greaterThanOrEquals',
  'lessThanOrEquals',
  'before',
  'after',
  'contains',
  'startsWith',
  'arrayAnyOf',
]);
const NO_VALUE_TYPES = new Set(['isNull', 'isNotNull', 'isTrue', 'isFalse']);

function parseClause(raw: unknown, attributes: Set<string>): WhereClause {
  if (typeof raw !== 'object' || raw === null) throw badRequest('Bad where: each item needs a type');
  const clause = raw as Record<string, unknown>;
  const type = clause.type;
  if (type === 'and' || type === 'or') {
    return { type, value: listOf(clause.value).map((inner) => parseClause(inner, attributes)) };
  }
  if (typeof type !== 'string' || !(VALUE_TYPES.has(type) || NO_VALUE_TYPES.has(type))) {
    throw badRequest(`Bad where: unknown type '${String(type)}'`);
  }
  const attribute = clause.attribute;
  if (typeof attribute !== 'string' || !attributes.has(attribute)) {
    throw badRequest(`Bad where: unknown attribute '${String(attribute)}'`);
  }
  if (VALUE_TYPES.has(type) && clause.value === undefined) {
    throw badRequest(`Bad where: '${type}' on '${attribute}' needs a value`);
  }
  return { type, attribute, value: clause.value };
}

/** Query values arrive as strings: compare a record's value by its string form. */
function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function matches(record: CrmRecord, clause: WhereClause): boolean {
  if (clause.type === 'and') return (clause.value as WhereClause[]).every((c) => matches(record, c));
  if (clause.type === 'or') return (clause.value as WhereClause[]).some((c) => matches(record, c));
  const actual = record[clause.attribute ?? ''];
  const want = clause.value;
  const wanted = (Array.isArray(want) ? want : [want]).map(text);
  const own = text(actual);
  switch (clause.type) {
    case 'equals':
      return own !== null && own === text(want);
    case 'notEquals':
      return own !== text(want);
    case 'in':
      return own !== null && wanted.includes(own);
    case 'notIn':
      return own === null || !wanted.includes(own);
    case 'isNull':
      return actual === null || actual === undefined || actual === '';
    case 'isNotNull':
      return !(actual === null || actual === undefined || actual === '');
    case 'isTrue':
      return actual === true;
    case 'isFalse':
      return actual === false;
    case 'greaterThan':
    case 'after':
      return own !== null && compare(actual, want) > 0;
    case 'lessThan':
    case 'before':
      return own !== null && compare(actual, want) < 0;
    case 'greaterThanOrEquals':
      return own !== null && compare(actual, want) >= 0;
    case 'lessThanOrEquals':
      return own !== null && compare(actual, want) <= 0;
    case 'contains':
      return own !== null && own.toLowerCase().includes(String(want).toLowerCase());
    case 'startsWith':
      return own !== null && own.toLowerCase().startsWith(String(want).toLowerCase());
    case 'arrayAnyOf':
      return Array.isArray(actual) && actual.some((item) => wanted.includes(text(item)));
    default:
      return false;
  }
}

/** Numbers numerically (also against numeric strings), everything else by string; nulls first. */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' || typeof b === 'number') {
    const x = Number(a);
    const y = Number(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  }
  const x = text(a) ?? '';
  const y = text(b) ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}
