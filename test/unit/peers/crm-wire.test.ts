import { describe, expect, it } from 'vitest';
import { listQuery } from '../../../main/peers/crm.js';
import {
  crmDatetimeToIso,
  isoToCrmDatetime,
  recordFromCrm,
  recordToCrm,
} from '../../../main/peers/crm-datetime.js';

describe('CRM datetimes', () => {
  it('converts EspoCRM UTC datetimes to ISO 8601 and back', () => {
    expect(crmDatetimeToIso('2026-11-22 15:04:05')).toBe('2026-11-22T15:04:05.000Z');
    expect(isoToCrmDatetime('2026-11-22T16:04:05+01:00')).toBe('2026-11-22 15:04:05');
    expect(isoToCrmDatetime('2026-11-22 15:04:05')).toBe('2026-11-22 15:04:05');
  });
  it('converts only datetime attributes, leaving text and dates alone', () => {
    const fromCrm = recordFromCrm({
      id: 'x',
      scheduledAt: '2026-01-02 03:04:05',
      content: '2026-01-02 03:04:05',
      date: '2026-01-02',
    });
    expect(fromCrm).toEqual({
      id: 'x',
      scheduledAt: '2026-01-02T03:04:05.000Z',
      content: '2026-01-02 03:04:05',
      date: '2026-01-02',
    });
    expect(recordToCrm({ scheduledAt: '2026-01-02T03:04:05.000Z', status: 'Failed' })).toEqual({
      scheduledAt: '2026-01-02 03:04:05',
      status: 'Failed',
    });
  });
});

describe('listQuery', () => {
  it('writes where clauses the way EspoCRM reads them', () => {
    const query = listQuery({
      maxSize: 200,
      offset: 400,
      orderBy: 'createdAt',
      order: 'asc',
      where: [
        { type: 'equals', attribute: 'contentProductionId', value: 'abc' },
        { type: 'in', attribute: 'status', value: ['Queued', 'Failed'] },
        { type: 'isNotNull', attribute: 'streamhostId' },
      ],
    });
    expect(query.get('maxSize')).toBe('200');
    expect(query.get('where[0][type]')).toBe('equals');
    expect(query.get('where[0][value]')).toBe('abc');
    expect(query.getAll('where[1][value][]')).toEqual(['Queued', 'Failed']);
    expect(query.get('where[2][type]')).toBe('isNotNull');
    expect(query.has('where[2][value]')).toBe(false);
  });

  it('writes an `or` group of clauses (contains, in) nested as EspoCRM reads them (search, issue #42.3)', () => {
    const query = listQuery({
      where: [
        {
          type: 'or',
          value: [
            { type: 'contains', attribute: 'name', value: '#12' },
            { type: 'in', attribute: 'contentProductionId', value: ['p1', 'p2'] },
          ],
        },
      ],
    });
    expect(query.get('where[0][type]')).toBe('or');
    expect(query.has('where[0][attribute]')).toBe(false);
    expect(query.get('where[0][value][0][type]')).toBe('contains');
    expect(query.get('where[0][value][0][attribute]')).toBe('name');
    expect(query.get('where[0][value][0][value]')).toBe('#12');
    expect(query.get('where[0][value][1][type]')).toBe('in');
    expect(query.getAll('where[0][value][1][value][]')).toEqual(['p1', 'p2']);
  });
});
