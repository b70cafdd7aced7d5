import { z } from 'zod';
import { errorEnvelope, type RouteContract } from '../../shared/api/contract.js';

const toSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' });

const json = (schema: z.ZodType) => ({ 'application/json': { schema: toSchema(schema, 'output') } });

/** The failure answers every route may give, and when (DESIGN §4); all carry the error envelope. */
const errorAnswers: ReadonlyArray<{
  status: number;
  description: string;
  when: (c: RouteContract) => boolean;
}> = [
  {
    status: 400,
    description: 'invalid input: VALIDATION_ERROR or INVALID_DATE, the message names the field and the rule',
    when: (c) => Boolean(c.params ?? c.query ?? c.body),
  },
  { status: 401, description: 'missing or wrong bridge key (UNAUTHORIZED)', when: (c) => c.auth !== 'none' },
  {
    status: 403,
    description: 'Host header not allowed while bound to loopback (against DNS rebinding)',
    when: () => true,
  },
  { status: 404, description: 'unknown id (NOT_FOUND, CHANNEL_NOT_FOUND)', when: (c) => c.auth !== 'none' },
  { status: 409, description: 'conflict with the current state (CONFLICT)', when: (c) => c.auth !== 'none' },
  { status: 413, description: 'body over the limit (PAYLOAD_TOO_LARGE)', when: (c) => c.body !== undefined },
  {
    status: 415,
    description: 'body not JSON (UNSUPPORTED_MEDIA_TYPE)',
    when: (c) => c.body !== undefined,
  },
  {
    status: 429,
    description: 'rate or quota (RATE_LIMIT, QUOTA_EXCEEDED), with Retry-After',
    when: (c) => c.auth !== 'none',
  },
  {
    status: 500,
    description:
      "a peer's or the bridge's failure, with the spec's code (PLATFORM_ERROR, CRM_ERROR, DB_ERROR, …)",
    when: () => true,
  },
  {
    status: 503,
    description: 'the peer this needs is not configured or not reachable (NOT_CONFIGURED)',
    when: (c) => c.auth !== 'none',
  },
];

/** Who may call: the bridge key (Bearer or X-Api-Key, `?key=` where the route takes it), or a CRM signature. */
function securityOf(contract: RouteContract): Record<string, string[]>[] | undefined {
  if (contract.auth === 'none') return [];
  const takesQueryKey = contract.query instanceof z.ZodObject && 'key' in contract.query.shape;
  if (contract.auth === 'webhook')
    return [{ espoSignature: [] }, { bearer: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }];
  return takesQueryKey ? [{ bearer: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }] : undefined;
}

function responsesOf(contract: RouteContract, streamItem: z.ZodType | undefined): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    '200': {
      description: streamItem
        ? 'a stream of events; the data of each is one of the schema’s alternatives, as JSON, told apart by `type`'
        : 'success',
      content: contract.responseType
        ? { [contract.responseType]: { schema: toSchema(streamItem ?? contract.response, 'output') } }
        : json(contract.response),
    },
  };
  for (const [status, answer] of Object.entries(contract.otherResponses ?? {})) {
    responses[status] = { description: answer.description, content: json(answer.schema) };
  }
  for (const answer of errorAnswers) {
    if (!answer.when(contract)) continue;
    const own = contract.otherResponses?.[answer.status];
    responses[String(answer.status)] = own
      ? {
          description: `${own.description}; or ${answer.description}`,
          content: {
            'application/json': {
              schema: { anyOf: [toSchema(own.schema, 'output'), toSchema(errorEnvelope, 'output')] },
            },
          },
        }
      : { description: answer.description, content: json(errorEnvelope) };
  }
  return responses;
}

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A route's operationId, derived from method and path so that every route, whoever adds it, has one
 * without declaring it: the method, then each path segment in PascalCase (`-`, `_` and `.` split
 * words), `:param` as `By<Param>`, a leading `/api` left out. `get /api/jobs/:id/retry` →
 * `getJobsByIdRetry`, `get /openapi.json` → `getOpenapiJson`. Method and path are what identify a
 * route, so ids are unique as routes are (buildOpenApi checks) and change only when the route does.
 * A contract's own `operationId` wins.
 */
export function operationIdOf(contract: Pick<RouteContract, 'method' | 'path' | 'operationId'>): string {
  if (contract.operationId !== undefined) return contract.operationId;
  const segments = contract.path.split('/').filter((segment) => segment !== '');
  if (segments[0] === 'api' && segments.length > 1) segments.shift();
  const words = segments.map((segment) => {
    const param = segment.startsWith(':');
    const name = segment.replace(/^:/, '').split(/[-_.]/).map(pascal).join('');
    return param ? `By${name}` : name;
  });
  return contract.method + words.join('');
}

/** Fails on two routes with one operationId: a client generator would name two functions alike. */
function checkOperationIds(contracts: readonly RouteContract[]): void {
  const seen = new Map<string, RouteContract>();
  for (const contract of contracts) {
    const id = operationIdOf(contract);
    const other = seen.get(id);
    if (other !== undefined) {
      throw new Error(
        `operationId ${id} of ${contract.method.toUpperCase()} ${contract.path} is already that of ${other.method.toUpperCase()} ${other.path}: give one of them its own operationId in its contract`,
      );
    }
    seen.set(id, contract);
  }
}

/**
 * OpenAPI 3.0 document generated from the route contracts (DESIGN §4): what the bridge
 * enforces (the zod schemas as JSON Schema), every status it answers and who may call.
 * `version` is the package version (info.version). `streamItems`: for a streaming route
 * (`responseType`), the schema of one event's data (GET /events: shared/activity-events.ts's
 * union, which the contract in shared/api does not import: it would weigh on the dashboard's
 * first screen).
 */
export function buildOpenApi(
  contracts: readonly RouteContract[],
  version: string,
  streamItems: ReadonlyMap<RouteContract, z.ZodType> = new Map(),
) {
  checkOperationIds(contracts);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const contract of contracts) {
    const path = contract.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    let queryNeedsOneOf: string[] | undefined;
    for (const [where, schema] of [
      ['path', contract.params],
      ['query', contract.query],
    ] as const) {
      if (!schema) continue;
      const json = toSchema(schema, 'input') as {
        properties?: Record<string, unknown>;
        required?: string[];
        anyOf?: { required?: string[] }[];
      };
      // "a platform or a postId": parameters cannot say it, so the operation does.
      if (where === 'query' && json.anyOf)
        queryNeedsOneOf = json.anyOf.flatMap((choice) => choice.required ?? []);
      for (const [name, property] of Object.entries(json.properties ?? {})) {
        parameters.push({
          name,
          in: where,
          required: where === 'path' || (json.required ?? []).includes(name),
          schema: property,
        });
      }
    }
    const security = securityOf(contract);
    paths[path] ??= {};
    paths[path][contract.method] = {
      operationId: operationIdOf(contract),
      summary: contract.summary,
      tags: [contract.tag],
      ...(security ? { security } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(queryNeedsOneOf ? { 'x-query-requires-one-of': queryNeedsOneOf } : {}),
      ...(contract.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: toSchema(contract.body, 'input') } },
            },
          }
        : {}),
      responses: responsesOf(contract, streamItems.get(contract)),
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Studio Bridge API', version },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <bridge key>' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        apiKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'key',
          description: 'Only on /events (EventSource cannot send headers) and the webhooks.',
        },
        espoSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'Signature',
          description:
            'EspoCRM webhook signature (or X-Signature), required on webhooks when CRM_WEBHOOK_SECRETS is set.',
        },
      },
    },
    security: [{ bearer: [] }, { apiKeyHeader: [] }],
    paths,
  };
}
