import { describe, expect, it } from 'vitest';
import { baselineName, breakingChanges, type OpenApiDoc } from '../../support/openapi-compat.js';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});
const status = () => ({ type: 'string', enum: ['scheduled', 'posted'] });

/** A small document in the bridge's shape: one GET with a query and one POST with a body. */
function doc(): OpenApiDoc {
  return {
    paths: {
      '/api/posts': {
        get: {
          operationId: 'getPosts',
          parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'number' } }],
          responses: {
            '200': {
              content: {
                'application/json': {
                  schema: object({ data: { type: 'array', items: object({ id: {}, status: status() }) } }),
                },
              },
            },
          },
        },
        post: {
          operationId: 'postPosts',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: object({ text: { type: 'string' }, status: status(), at: {} }, ['text']),
              },
            },
          },
          responses: { '200': { content: { 'application/json': { schema: object({ id: {} }) } } } },
        },
      },
      '/health': { get: { operationId: 'getHealth', responses: {} } },
    },
  };
}

/** The document after `change`, applied to a fresh copy. */
function changed(change: (d: OpenApiDoc) => void): OpenApiDoc {
  const copy = doc();
  change(copy);
  return copy;
}
type Schema = { properties: Record<string, Schema>; required: string[]; enum: string[]; items: Schema };
const postBody = (d: OpenApiDoc) =>
  d.paths['/api/posts']!.post!.requestBody!.content!['application/json']!.schema as unknown as Schema;
const listItem = (d: OpenApiDoc) =>
  (d.paths['/api/posts']!.get!.responses!['200']!.content!['application/json']!.schema as unknown as Schema)
    .properties.data!.items;

describe('breakingChanges', () => {
  it('finds none between a document and itself', () => {
    expect(breakingChanges(doc(), doc())).toEqual([]);
  });

  it('lets additions through: a path, an operation, an optional parameter or field, a response field, an enum value', () => {
    const after = changed((d) => {
      d.paths['/api/new'] = { get: { operationId: 'getNew' } };
      d.paths['/health']!.post = { operationId: 'postHealth' };
      d.paths['/api/posts']!.get!.parameters!.push({ name: 'cursor', in: 'query', required: false });
      postBody(d).properties.tags = { type: 'array' } as unknown as Schema;
      listItem(d).properties.url = { type: 'string' } as unknown as Schema;
      listItem(d).properties.status!.enum.push('failed');
    });
    expect(breakingChanges(doc(), after)).toEqual([]);
  });

  it('catches a removed path and a removed operation', () => {
    const after = changed((d) => {
      delete d.paths['/health'];
      delete d.paths['/api/posts']!.post;
    });
    expect(breakingChanges(doc(), after)).toEqual([
      'POST /api/posts: operation removed',
      '/health: path removed',
    ]);
  });

  it('catches a removed field, in a request body and in a response item', () => {
    const after = changed((d) => {
      delete postBody(d).properties.at;
      delete listItem(d).properties.id;
    });
    expect(breakingChanges(doc(), after)).toEqual([
      'GET /api/posts 200.data[].id: field removed',
      'POST /api/posts body.at: field removed',
    ]);
  });

  it('catches a removed enum value, on either side', () => {
    const after = changed((d) => {
      postBody(d).properties.status!.enum = ['scheduled'];
      listItem(d).properties.status!.enum = ['posted'];
    });
    expect(breakingChanges(doc(), after)).toEqual([
      'GET /api/posts 200.data[].status: enum value "scheduled" removed',
      'POST /api/posts body.status: enum value "posted" removed',
    ]);
  });

  it('catches a newly required request field and parameter, not a newly required response field', () => {
    const after = changed((d) => {
      postBody(d).required.push('at');
      d.paths['/api/posts']!.get!.parameters![0]!.required = true;
      listItem(d).required.push('status');
    });
    expect(breakingChanges(doc(), after)).toEqual([
      'GET /api/posts parameter query:limit: newly required',
      'POST /api/posts body.at: newly required field',
    ]);
  });

  it('catches a removed parameter and a renamed operationId', () => {
    const after = changed((d) => {
      d.paths['/api/posts']!.get!.parameters = [];
      d.paths['/health']!.get!.operationId = 'health';
    });
    expect(breakingChanges(doc(), after)).toEqual([
      'GET /api/posts parameter query:limit: removed',
      'GET /health: operationId getHealth changed to health',
    ]);
  });

  it('matches oneOf alternatives by their event type, so a new type in the middle is no removal', () => {
    const event = (type: string, data: unknown) => object({ type: { type: 'string', enum: [type] }, data });
    const stream = (alternatives: unknown[]): OpenApiDoc => ({
      paths: {
        '/events': {
          get: {
            responses: { '200': { content: { 'text/event-stream': { schema: { oneOf: alternatives } } } } },
          },
        },
      },
    });
    const before = stream([event('a', object({ n: {} })), event('b', object({ m: {} }))]);
    const added = stream([event('a', object({ n: {} })), event('new', {}), event('b', object({ m: {} }))]);
    expect(breakingChanges(before, added)).toEqual([]);
    const lost = stream([event('a', object({})), event('c', {})]);
    expect(breakingChanges(before, lost)).toEqual([
      'GET /events 200(type=a).data.n: field removed',
      'GET /events 200: oneOf alternative type=b removed',
    ]);
  });
});

describe('baselineName', () => {
  it('is per major; while 0.x the minor counts as the major', () => {
    expect(baselineName('0.1.0')).toBe('v0.1');
    expect(baselineName('0.1.7')).toBe('v0.1');
    expect(baselineName('0.2.0')).toBe('v0.2');
    expect(baselineName('1.4.2')).toBe('v1');
  });
});
