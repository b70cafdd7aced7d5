import { z } from 'zod';
import { errorEnvelope, type RouteContract } from '../../shared/api/contract.js';

const toSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' });

/** OpenAPI 3.0 document generated from the route contracts (DESIGN §4). */
export function buildOpenApi(contracts: readonly RouteContract[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const contract of contracts) {
    const path = contract.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ['path', contract.params],
      ['query', contract.query],
    ] as const) {
      if (!schema) continue;
      const json = toSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, property] of Object.entries(json.properties ?? {})) {
        parameters.push({
          name,
          in: where,
          required: where === 'path' || (json.required ?? []).includes(name),
          schema: property,
        });
      }
    }
    paths[path] ??= {};
    paths[path][contract.method] = {
      summary: contract.summary,
      tags: [contract.tag],
      ...(contract.auth === 'none' ? { security: [] } : {}),
      ...(contract.auth === 'webhook' ? { security: [{ espoSignature: [] }, { apiKeyHeader: [] }] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(contract.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: toSchema(contract.body, 'input') } },
            },
          }
        : {}),
      responses: {
        '200': {
          description: 'success',
          content: { 'application/json': { schema: toSchema(contract.response, 'output') } },
        },
        default: {
          description: 'failure',
          content: { 'application/json': { schema: toSchema(errorEnvelope, 'output') } },
        },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Studio Bridge API', version },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        espoSignature: { type: 'apiKey', in: 'header', name: 'Signature' },
      },
    },
    security: [{ bearer: [] }, { apiKeyHeader: [] }],
    paths,
  };
}
