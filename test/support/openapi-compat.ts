/**
 * What in a new /openapi.json breaks a client built on an older one (issue #26): a path, operation,
 * parameter, field or enum value that is gone, or a field or parameter a request must now carry
 * that it did not have to, or a changed operationId. Additions are not breaking: new paths, operations, optional inputs,
 * response fields, enum values.
 *
 * Small on purpose (the maintained OpenAPI diff tools mostly need Java); it reads the documents the
 * bridge generates (main/http/openapi.ts): OpenAPI 3.0, schemas inline, no $ref.
 */

/** The baseline file of a version's major: `v0.1` for 0.1.x (while 0.x the minor counts as major), `v1` for 1.x. */
export function baselineName(version: string): string {
  const [major = '0', minor = '0'] = version.split('.');
  return major === '0' ? `v0.${minor}` : `v${major}`;
}

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Schemas of the request side must not demand more; of the response side, not promise less. */
type Side = 'request' | 'response';

/** A oneOf/anyOf alternative's identity: its single-valued `type` enum (an event type), else its index. */
function alternativeKey(schema: unknown, index: number): string {
  const typeEnum = isObject(schema) && isObject(schema.properties) ? schema.properties.type : undefined;
  const values = isObject(typeEnum) && Array.isArray(typeEnum.enum) ? typeEnum.enum : [];
  return values.length === 1 ? `type=${String(values[0])}` : `#${index}`;
}

function compareSchemas(before: unknown, after: unknown, where: string, side: Side, out: string[]): void {
  if (!isObject(before) || !isObject(after)) return;
  if (Array.isArray(before.enum) && Array.isArray(after.enum)) {
    const now = new Set(after.enum.map((value) => JSON.stringify(value)));
    for (const value of before.enum) {
      if (!now.has(JSON.stringify(value))) out.push(`${where}: enum value ${JSON.stringify(value)} removed`);
    }
  }
  const oldProps = isObject(before.properties) ? before.properties : {};
  const newProps = isObject(after.properties) ? after.properties : {};
  for (const [name, schema] of Object.entries(oldProps)) {
    if (!(name in newProps)) out.push(`${where}.${name}: field removed`);
    else compareSchemas(schema, newProps[name], `${where}.${name}`, side, out);
  }
  if (side === 'request') {
    const wasRequired = new Set(Array.isArray(before.required) ? before.required : []);
    for (const name of Array.isArray(after.required) ? after.required : []) {
      if (!wasRequired.has(name)) out.push(`${where}.${String(name)}: newly required field`);
    }
  }
  compareSchemas(before.items, after.items, `${where}[]`, side, out);
  compareSchemas(before.additionalProperties, after.additionalProperties, `${where}{}`, side, out);
  for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
    const oldAlternatives = Array.isArray(before[keyword]) ? before[keyword] : [];
    const newAlternatives = Array.isArray(after[keyword]) ? after[keyword] : [];
    const byKey = new Map(newAlternatives.map((schema, index) => [alternativeKey(schema, index), schema]));
    oldAlternatives.forEach((schema, index) => {
      const key = alternativeKey(schema, index);
      const match = byKey.get(key);
      if (match === undefined) out.push(`${where}: ${keyword} alternative ${key} removed`);
      else compareSchemas(schema, match, `${where}(${key})`, side, out);
    });
  }
}

function compareOperations(before: Operation, after: Operation, where: string, out: string[]): void {
  // Generated clients name their functions after it.
  if (before.operationId !== undefined && after.operationId !== before.operationId) {
    out.push(`${where}: operationId ${before.operationId} changed to ${String(after.operationId)}`);
  }
  const newParams = new Map((after.parameters ?? []).map((p) => [`${p.in}:${p.name}`, p]));
  const oldParams = new Map((before.parameters ?? []).map((p) => [`${p.in}:${p.name}`, p]));
  for (const [key, param] of oldParams) {
    const now = newParams.get(key);
    if (now === undefined) out.push(`${where} parameter ${key}: removed`);
    else compareSchemas(param.schema, now.schema, `${where} parameter ${key}`, 'request', out);
  }
  for (const [key, param] of newParams) {
    if (param.required && !oldParams.get(key)?.required)
      out.push(`${where} parameter ${key}: newly required`);
  }
  const oldBody = before.requestBody?.content?.['application/json']?.schema;
  const newBody = after.requestBody?.content?.['application/json']?.schema;
  if (after.requestBody?.required && !before.requestBody) out.push(`${where} request body: newly required`);
  compareSchemas(oldBody, newBody, `${where} body`, 'request', out);
  for (const [status, response] of Object.entries(before.responses ?? {})) {
    const now = after.responses?.[status];
    for (const [type, media] of Object.entries(response.content ?? {})) {
      const match = now?.content?.[type];
      if (match === undefined) out.push(`${where} ${status} ${type}: response removed`);
      else compareSchemas(media.schema, match.schema, `${where} ${status}`, 'response', out);
    }
  }
}

/** Every breaking change from `before` to `after`, one line each; empty when `after` only adds. */
export function breakingChanges(before: OpenApiDoc, after: OpenApiDoc): string[] {
  const out: string[] = [];
  for (const [path, operations] of Object.entries(before.paths)) {
    const now = after.paths[path];
    if (now === undefined) {
      out.push(`${path}: path removed`);
      continue;
    }
    for (const [method, operation] of Object.entries(operations)) {
      const where = `${method.toUpperCase()} ${path}`;
      const match = now[method];
      if (match === undefined) out.push(`${where}: operation removed`);
      else compareOperations(operation, match, where, out);
    }
  }
  return out;
}
