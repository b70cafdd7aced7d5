import type { listProductions, ProductionSummary } from '../../../shared/api/productions.js';
import type { z } from 'zod';
import type { CrmClient, CrmWhere } from '../../peers/crm.js';
import { toSummary } from './thread-items.js';

type Query = z.output<NonNullable<(typeof listProductions)['query']>>;

/** One page of the CRM's productions, newest scheduled first, with the filters as CRM where clauses. */
export async function listProductionsPage(
  crm: CrmClient,
  query: Query,
): Promise<{ total: number; productions: ProductionSummary[] }> {
  const where: CrmWhere[] = [];
  if (query.q) where.push({ type: 'contains', attribute: 'name', value: query.q });
  if (query.show) where.push({ type: 'equals', attribute: 'showName', value: query.show });
  if (query.stage) where.push({ type: 'equals', attribute: 'stage', value: query.stage });
  if (query.type) where.push({ type: 'equals', attribute: 'contentType', value: query.type });
  const page = await crm.list('ContentProduction', {
    where,
    orderBy: 'scheduledDate',
    order: 'desc',
    maxSize: query.limit,
    offset: query.offset,
    select: ['id', 'name', 'contentType', 'stage', 'showName', 'scheduledDate'],
  });
  return { total: page.total, productions: page.list.map(toSummary) };
}
