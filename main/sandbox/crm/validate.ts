import { badRequest } from './errors.js';
import { entityFields, type CrmEntityName, type FieldDef } from './entities.js';
import { isCrmDate, isCrmDatetime } from './wire-format.js';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const VARCHAR_MAX = 255;

export type LinkExists = (entity: CrmEntityName, id: string) => boolean;

/**
 * The writable attributes of a create or update body, validated like EspoCRM does (400
 * "validationFailure" naming the field and the rule). Unknown and read-only attributes
 * are ignored, as EspoCRM ignores them.
 */
export function writableAttributes(
  entity: CrmEntityName,
  input: unknown,
  mode: 'create' | 'update',
  linkExists: LinkExists,
): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw badRequest('Bad request: the body must be a JSON object');
  }
  const body = input as Record<string, unknown>;
  const fields = entityFields[entity];
  const out: Record<string, unknown> = {};
  for (const [attribute, def] of Object.entries(fields)) {
    if (!(attribute in body)) continue;
    out[attribute] = checkValue(attribute, def, body[attribute], linkExists);
  }
  for (const [attribute, def] of Object.entries(fields)) {
    const present = attribute in out;
    if (def.required && (mode === 'create' || present) && isEmpty(present ? out[attribute] : undefined)) {
      throw badRequest(`validationFailure: field '${attribute}' is required`);
    }
  }
  return out;
}

function checkValue(attribute: string, def: FieldDef, value: unknown, linkExists: LinkExists): unknown {
  const fail = (rule: string): never => {
    throw badRequest(`validationFailure: field '${attribute}' (${def.type}): ${rule}`);
  };
  if (value === null || value === undefined) {
    if (def.type === 'multiEnum') return [];
    if (def.type === 'bool') return false;
    // An enum with a default has no empty option: null is not an allowed value.
    if (def.type === 'enum' && def.default !== undefined) fail('null is not an allowed value');
    return null;
  }
  switch (def.type) {
    case 'varchar':
    case 'text':
      if (typeof value !== 'string') return fail('must be a string');
      if (def.type === 'varchar' && value.length > (def.maxLength ?? VARCHAR_MAX)) {
        fail(`longer than ${def.maxLength ?? VARCHAR_MAX} characters`);
      }
      return value;
    case 'url':
      if (typeof value !== 'string') return fail('must be a string');
      if (value !== '' && !URL.canParse(value)) fail('not a valid URL');
      return value;
    case 'email':
      if (typeof value !== 'string') return fail('must be a string');
      if (value !== '' && !EMAIL.test(value)) fail('not a valid email address');
      return value;
    case 'enum':
      if (typeof value !== 'string' || !def.options?.includes(value)) {
        return fail(`${JSON.stringify(value)} is not an allowed value (${def.options?.join(', ')})`);
      }
      return value;
    case 'multiEnum':
      if (!Array.isArray(value)) return fail('must be an array');
      for (const item of value) {
        if (typeof item !== 'string' || !def.options?.includes(item)) {
          fail(`${JSON.stringify(item)} is not an allowed value (${def.options?.join(', ')})`);
        }
      }
      return [...(value as string[])];
    case 'datetime':
      if (typeof value !== 'string' || !isCrmDatetime(value)) {
        return fail(`${JSON.stringify(value)} is not 'YYYY-MM-DD HH:mm:ss' (UTC)`);
      }
      return value;
    case 'date':
      if (typeof value !== 'string' || !isCrmDate(value))
        return fail(`${JSON.stringify(value)} is not 'YYYY-MM-DD'`);
      return value;
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) return fail('must be an integer');
      return value;
    case 'float':
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail('must be a number');
      return value;
    case 'bool':
      if (typeof value !== 'boolean') return fail('must be true or false');
      return value;
    case 'jsonObject':
      if (typeof value !== 'object' || Array.isArray(value)) return fail('must be a JSON object');
      return structuredClone(value);
    case 'link':
      if (typeof value !== 'string') return fail('must be a record id');
      if (!def.entity || !linkExists(def.entity, value)) fail(`no ${def.entity} with id ${value}`);
      return value;
  }
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}
