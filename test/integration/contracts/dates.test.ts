import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxPeers, type SandboxPeers } from '../../../main/sandbox/index.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';
import { arbitraryOf, type Schema } from '../../support/json-schema-arbitrary.js';

/**
 * Issue #25.1: every date field /openapi.json lists (format date or date-time, in a query or a
 * body), given any date JavaScript can hold — out to ±275,760 years — is answered without a 5xx;
 * one outside 2000-01-01 … 5 years ahead is 400 INVALID_DATE naming the field and the bound (the
 * composer's preview, which answers a draft's broken rules as a list, lists it there instead).
 */

const SEED = Number(process.env.OPENAPI_FUZZ_SEED ?? Date.now() % 2 ** 31);
const RUNS_PER_FIELD = 12;
const EARLIEST_MS = Date.parse('2000-01-01T00:00:00Z');
const DAY_MS = 86_400_000;

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface DateField {
  method: string;
  path: string;
  where: 'query' | 'body';
  name: string;
  format: 'date' | 'date-time';
  /** The rest of a valid request, generated from the document. */
  base: fc.Arbitrary<Record<string, unknown>>;
  operation: Operation;
}

let peers: SandboxPeers;
let bridge: TestBridge;
const fields: DateField[] = [];

const isDate = (schema: Schema): 'date' | 'date-time' | null => {
  const own = schema.format ?? (schema.anyOf ?? schema.oneOf)?.find((choice) => choice.format)?.format;
  return own === 'date' || own === 'date-time' ? own : null;
};

beforeAll(async () => {
  peers = await startSandboxPeers();
  bridge = await startTestBridge(
    {
      CRM_URL: peers.crm.url,
      CRM_API_KEY: peers.crm.apiKey,
      POSTSVC_URL: peers.postsvc.url,
      POSTSVC_API_KEY: peers.postsvc.apiKey,
      POSTSVC_PLAN: 'business',
      GATEWAY_URL: peers.gateway.url,
      GATEWAY_API_KEY: peers.gateway.apiKey,
      AUTOMATION_URL: peers.automation.url,
    },
    { webhookBudgetMs: 1_000 },
  );
  const doc = (await bridge.call('GET', '/openapi.json')).body as {
    paths: Record<string, Record<string, Operation>>;
  };
  for (const [path, operations] of Object.entries(doc.paths)) {
    if (path.includes('{')) continue; // no date field sits beside a path parameter
    for (const [method, operation] of Object.entries(operations)) {
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const querySchema: Schema = {
        type: 'object',
        properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
        required: query.filter((p) => p.required).map((p) => p.name),
      };
      const body = operation.requestBody?.content['application/json']?.schema;
      for (const [where, schema] of [
        ['query', querySchema],
        ['body', body],
      ] as const) {
        if (schema?.type !== 'object') continue;
        for (const [name, property] of Object.entries(schema.properties ?? {})) {
          const format = isDate(property);
          if (!format) continue;
          const base = arbitraryOf(schema) as fc.Arbitrary<Record<string, unknown>>;
          fields.push({ method, path, where, name, format, base, operation });
        }
      }
    }
  }
}, 60_000);
afterAll(async () => {
  await bridge?.close();
  await peers?.stop();
});

/** Any instant JavaScript holds, the two ends of its range, and the ends of four-digit years. */
const anyInstant = fc.oneof(
  fc.constantFrom(8.64e15, -8.64e15, Date.parse('9999-12-31T23:59:59Z'), Date.parse('0000-01-01T00:00:00Z')),
  fc.integer({ min: -8.64e15, max: 8.64e15 }),
  fc.integer({ min: EARLIEST_MS - 400 * DAY_MS, max: Date.now() + 6 * 366 * DAY_MS }),
);

/** As a request would carry it: `+275760-09-13T00:00:00Z`, or `+275760-09-13` for a date. */
function written(at: number, format: 'date' | 'date-time'): string {
  const iso = new Date(at).toISOString().replace('.000Z', 'Z');
  return format === 'date' ? iso.slice(0, iso.indexOf('T')) : iso;
}

function outOfBounds(at: number, format: 'date' | 'date-time'): boolean {
  const latest = new Date();
  latest.setUTCFullYear(latest.getUTCFullYear() + 5);
  // A day is compared by its midnight; a day-long margin keeps the test off the exact edge.
  const margin = format === 'date' ? DAY_MS : 60_000;
  return at < EARLIEST_MS - margin || at > latest.getTime() + margin;
}

describe('every date field of /openapi.json (issue #25.1)', () => {
  it('lists the date fields it reads', () => {
    const names = fields.map((f) => `${f.method.toUpperCase()} ${f.path} ${f.where}.${f.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/posts/preview body.scheduleDate',
        'POST /postsvc/schedule body.scheduleDate',
        'POST /streamhost/create-broadcast body.scheduledAt',
        'GET /api/posts query.from',
        'GET /analytics/social-metrics query.startDate',
      ]),
    );
  });

  it('answers any date without a 5xx, and one out of bounds with 400 INVALID_DATE naming the field', async () => {
    const failures: string[] = [];
    for (const field of fields) {
      await fc.assert(
        fc.asyncProperty(field.base, anyInstant, async (base, at) => {
          const value = written(at, field.format);
          const part = { ...base, [field.name]: value };
          const query =
            field.where === 'query'
              ? `?${new URLSearchParams(Object.entries(part).map(([k, v]): [string, string] => [k, String(v)]))}`
              : '';
          const answer = await bridge.call(field.method.toUpperCase(), field.path + query, {
            ...(field.where === 'body' ? { body: part } : {}),
          });
          const what = `${field.method.toUpperCase()} ${field.path} ${field.name}=${value}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
          if (answer.status >= 500) failures.push(what);
          if (outOfBounds(at, field.format)) {
            const listed =
              field.path === '/api/posts/preview' &&
              answer.status === 200 &&
              (answer.body.errors as { field: string; code: string }[]).some(
                (error) => error.field === field.name && error.code === 'INVALID_DATE',
              );
            const refused =
              answer.status === 400 &&
              answer.body.code === 'INVALID_DATE' &&
              String(answer.body.error).includes(`${field.name}: `);
            if (!listed && !refused) failures.push(`not refused as out of bounds: ${what}`);
          }
        }),
        { numRuns: RUNS_PER_FIELD, seed: SEED, endOnFailure: true },
      );
    }
    expect(failures, `seed ${SEED}`).toEqual([]);
  }, 120_000);

  it('names the bounds: the two ends of JavaScript dates on the preview and on /postsvc/schedule', async () => {
    for (const path of ['/api/posts/preview', '/postsvc/schedule']) {
      const late = await bridge.call('POST', path, {
        body: { post: 'Hi', platforms: ['socialnet'], scheduleDate: '+275760-09-13T00:00:00Z' },
      });
      const early = await bridge.call('POST', path, {
        body: { post: 'Hi', platforms: ['socialnet'], scheduleDate: '-271821-04-20T00:00:00Z' },
      });
      const said = (answer: typeof late) =>
        path === '/postsvc/schedule' ? answer.body.error : answer.body.errors[0]?.message;
      expect(late.status, path).toBe(path === '/postsvc/schedule' ? 400 : 200);
      expect(said(late)).toMatch(
        /^scheduleDate: \+275760-09-13T00:00:00Z is more than 5 years ahead \(latest /,
      );
      expect(said(early)).toBe('scheduleDate: -271821-04-20T00:00:00Z is before 2000-01-01');
    }
  });
});
