import { z } from 'zod';
import type { BackoffPolicy } from '../kernel/jobs/backoff.js';
import { crmDatetimeFields, isoToCrmDatetime, recordFromCrm, recordToCrm } from './crm-datetime.js';
import { HttpClient, type HttpClientOptions } from './http-client.js';
import { PeerError } from './peer-error.js';

export type CrmEntity =
  | 'ContentProduction'
  | 'GuestBooking'
  | 'Clip'
  | 'SocialPost'
  | 'PlatformPublish'
  | 'StreamhostBroadcast'
  | 'CVideo'
  | 'CEpisode';

export type CrmRecord = { id: string } & Record<string, unknown>;

export type CrmWhere =
  | { type: 'equals' | 'notEquals'; attribute: string; value: string | number | boolean }
  /** Case-insensitive "value is part of the attribute" (a name search). */
  | { type: 'contains'; attribute: string; value: string }
  | { type: 'in' | 'notIn'; attribute: string; value: string[] }
  | { type: 'isNull' | 'isNotNull'; attribute: string }
  /** EspoCRM's LIKE '%value%' (case-insensitive in its MySQL collation). */
  | { type: 'contains'; attribute: string; value: string }
  /** Any of the clauses (EspoCRM's nested `or` group). */
  | { type: 'or'; value: CrmWhere[] }
  /** On a datetime attribute the value is ISO 8601: the client sends it in the CRM's format. */
  | {
      type: 'after' | 'before' | 'greaterThanOrEquals' | 'lessThanOrEquals';
      attribute: string;
      value: string | number;
    };

export interface CrmListOptions {
  where?: CrmWhere[];
  orderBy?: string;
  order?: 'asc' | 'desc';
  maxSize?: number;
  offset?: number;
  select?: string[];
}

/** EspoCRM refuses maxSize above 200 with a 403. */
export const CRM_MAX_PAGE = 200;

const crmRecord = z.looseObject({ id: z.string().min(1) });
const crmList = z.object({ total: z.number().int(), list: z.array(crmRecord) });

export interface CrmClientOptions {
  url: string;
  apiKey?: string;
  username?: string;
  password?: string;
  timeoutMs?: number;
  retry?: { attempts: number; backoff: BackoffPolicy };
  onAttempt?: HttpClientOptions['onAttempt'];
  keyRefusedFor?: HttpClientOptions['keyRefusedFor'];
  /** Told before every write-back (DESIGN §6.1.2: a write-back touches the record, echo or not). */
  onWrite?: (entity: string, id: string) => void;
}

/** EspoCRM REST client (DESIGN §5.1). Knows the wire, not what the records mean. */
export class CrmClient {
  readonly http: HttpClient;
  private readonly onWrite: (entity: string, id: string) => void;

  constructor(options: CrmClientOptions) {
    this.onWrite = options.onWrite ?? (() => undefined);
    const auth: Record<string, string> = options.apiKey
      ? { 'X-Api-Key': options.apiKey }
      : {
          Authorization: `Basic ${Buffer.from(`${options.username ?? ''}:${options.password ?? ''}`).toString('base64')}`,
        };
    this.http = new HttpClient({
      peer: 'crm',
      baseUrl: `${options.url.replace(/\/+$/, '')}/api/v1`,
      headers: auth,
      timeoutMs: options.timeoutMs ?? 10_000,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
      ...(options.keyRefusedFor ? { keyRefusedFor: options.keyRefusedFor } : {}),
    });
  }

  /** GET /App/user: true when the credentials work. */
  async checkCredentials(): Promise<{ userName: string | null }> {
    const body = await this.http.json(
      { method: 'GET', path: '/App/user' },
      z.looseObject({ user: z.looseObject({ userName: z.string().optional() }).optional() }),
    );
    return { userName: body.user?.userName ?? null };
  }

  async get(entity: CrmEntity, id: string): Promise<CrmRecord> {
    const record = await this.http.json(
      { method: 'GET', path: `/${entity}/${encodeURIComponent(id)}` },
      crmRecord,
    );
    return recordFromCrm(record);
  }

  /** The record, or null when the CRM says it is gone (404). */
  async find(entity: CrmEntity, id: string): Promise<CrmRecord | null> {
    try {
      return await this.get(entity, id);
    } catch (error) {
      if (error instanceof PeerError && error.status === 404) return null;
      throw error;
    }
  }

  async list(entity: CrmEntity, options: CrmListOptions = {}): Promise<{ total: number; list: CrmRecord[] }> {
    const maxSize = Math.min(options.maxSize ?? CRM_MAX_PAGE, CRM_MAX_PAGE);
    const body = await this.http.json(
      { method: 'GET', path: `/${entity}`, query: listQuery({ ...options, maxSize }) },
      crmList,
    );
    return { total: body.total, list: body.list.map((record) => recordFromCrm(record)) };
  }

  /** Every matching record, paging 200 at a time (EspoCRM refuses bigger pages). */
  async listAll(
    entity: CrmEntity,
    options: Omit<CrmListOptions, 'maxSize' | 'offset'> = {},
  ): Promise<CrmRecord[]> {
    const all: CrmRecord[] = [];
    for (let offset = 0; ; offset += CRM_MAX_PAGE) {
      const page = await this.list(entity, {
        ...options,
        orderBy: options.orderBy ?? 'createdAt',
        maxSize: CRM_MAX_PAGE,
        offset,
      });
      all.push(...page.list);
      if (page.list.length < CRM_MAX_PAGE || all.length >= page.total) return all;
    }
  }

  /**
   * One page of the records modified at or after `sinceIso`, oldest first (DESIGN §5.1, §6.9).
   * The caller pages by key (the last `modifiedAt` seen) and by `offset` only within one second.
   */
  async listModifiedSince(
    entity: CrmEntity,
    sinceIso: string,
    offset = 0,
  ): Promise<{ total: number; list: CrmRecord[] }> {
    return this.list(entity, {
      where: [{ type: 'greaterThanOrEquals', attribute: 'modifiedAt', value: sinceIso }],
      orderBy: 'modifiedAt',
      order: 'asc',
      maxSize: CRM_MAX_PAGE,
      offset,
    });
  }

  /** The newest `modifiedAt` of an entity (ISO), null when it has no records. */
  async newestModifiedAt(entity: CrmEntity): Promise<string | null> {
    const page = await this.list(entity, {
      orderBy: 'modifiedAt',
      order: 'desc',
      maxSize: 1,
      select: ['modifiedAt'],
    });
    const value = page.list[0]?.modifiedAt;
    return typeof value === 'string' ? value : null;
  }

  async create(entity: CrmEntity, attributes: Record<string, unknown>): Promise<CrmRecord> {
    const record = await this.http.json(
      { method: 'POST', path: `/${entity}`, body: recordToCrm(attributes) },
      crmRecord,
    );
    return recordFromCrm(record);
  }

  /** PUT with only the changed fields; EspoCRM answers with the full record. */
  async update(entity: CrmEntity, id: string, changes: Record<string, unknown>): Promise<CrmRecord> {
    this.onWrite(entity, id);
    const record = await this.http.json(
      { method: 'PUT', path: `/${entity}/${encodeURIComponent(id)}`, body: recordToCrm(changes) },
      crmRecord,
    );
    return recordFromCrm(record);
  }

  async remove(entity: CrmEntity, id: string): Promise<void> {
    await this.http.request({ method: 'DELETE', path: `/${entity}/${encodeURIComponent(id)}` });
  }
}

/** `where[0][type]=equals&where[0][attribute]=...&where[0][value]=...` as EspoCRM reads it. */
export function listQuery(options: CrmListOptions): URLSearchParams {
  const query = new URLSearchParams();
  if (options.maxSize !== undefined) query.set('maxSize', String(options.maxSize));
  if (options.offset !== undefined) query.set('offset', String(options.offset));
  if (options.orderBy) query.set('orderBy', options.orderBy);
  if (options.order) query.set('order', options.order);
  if (options.select?.length) query.set('select', options.select.join(','));
  options.where?.forEach((clause, i) => appendWhere(query, `where[${i}]`, clause));
  return query;
}

function appendWhere(query: URLSearchParams, key: string, clause: CrmWhere): void {
  query.set(`${key}[type]`, clause.type);
  if (clause.type === 'or') {
    clause.value.forEach((inner, i) => appendWhere(query, `${key}[value][${i}]`, inner));
    return;
  }
  query.set(`${key}[attribute]`, clause.attribute);
  if (!('value' in clause)) return;
  if (Array.isArray(clause.value)) clause.value.forEach((v) => query.append(`${key}[value][]`, v));
  else if (typeof clause.value === 'string' && crmDatetimeFields.has(clause.attribute))
    query.set(`${key}[value]`, isoToCrmDatetime(clause.value));
  else query.set(`${key}[value]`, String(clause.value));
}
