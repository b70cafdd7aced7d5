import fc from 'fast-check';

/**
 * fast-check arbitraries from the OpenAPI 3.0 schemas of /openapi.json (the subset zod's
 * `toJSONSchema` writes): values a client reading only the document would send. And the
 * document's schemas as plain JSON Schema, for ajv to check responses with.
 */
export interface Schema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  default?: unknown;
  [keyword: string]: unknown;
}

/** Longest free string generated (a 2,000,000-character transcript limit is not a test length). */
const LONGEST_FREE_STRING = 40;
const LONGEST_ARRAY = 4;
const DAY_MS = 86_400_000;

/** Dates a person can mean (shared/time-bounds.ts): from an hour ahead to a year ahead. */
const futureDate = fc
  .integer({ min: 1, max: 365 * 24 })
  .map((hours) => new Date(Date.now() + hours * 3_600_000 + 60_000));

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') return futureDate.map((date) => date.toISOString());
  if (schema.format === 'date')
    return fc
      .integer({ min: -2000, max: 1500 }) // within 2000-01-01 … 5 years ahead (shared/time-bounds.ts)
      .map((days) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10));
  if (schema.format === 'uri' && schema.pattern === undefined) return fc.webUrl({ validSchemes: ['https'] });
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(
    minLength,
    Math.min(schema.maxLength ?? LONGEST_FREE_STRING, LONGEST_FREE_STRING),
  );
  if (schema.pattern !== undefined) {
    const pattern = new RegExp(schema.pattern, 'u');
    const fitting = (value: string) =>
      value.length >= minLength && [...value].length <= (schema.maxLength ?? Infinity);
    try {
      return fc.stringMatching(pattern).filter(fitting);
    } catch {
      // fast-check's stringMatching does not read \p{…} classes: words of a few kinds of
      // characters, kept when the pattern takes them (the only such patterns are the ids').
      return fc
        .string({
          unit: fc.constantFrom('a', 'Z', '7', '-', '_', '.', ':', 'é', '😀', ' '),
          minLength,
          maxLength,
        })
        .filter((value) => pattern.test(value));
    }
  }
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    fc.string({ unit: 'binary', minLength, maxLength }),
  );
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = schema.exclusiveMinimum === true;
  const exclusiveMax = schema.exclusiveMaximum === true;
  const min = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : schema.minimum;
  const max = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : schema.maximum;
  const strictMin = exclusiveMin || typeof schema.exclusiveMinimum === 'number';
  const strictMax = exclusiveMax || typeof schema.exclusiveMaximum === 'number';
  if (integer) {
    const low =
      min === undefined
        ? -1_000_000
        : Math.max(Math.ceil(min) + (strictMin && Number.isInteger(min) ? 1 : 0), -1_000_000_000);
    const high =
      max === undefined
        ? 1_000_000
        : Math.min(Math.floor(max) - (strictMax && Number.isInteger(max) ? 1 : 0), 1_000_000_000);
    return fc.integer({ min: low, max: Math.max(low, high) });
  }
  return fc
    .double({
      min: min ?? -1e9,
      max: max ?? 1e9,
      minExcluded: strictMin,
      maxExcluded: strictMax,
      noNaN: true,
      noDefaultInfinity: true,
    })
    .map((value) => (Object.is(value, -0) ? 0 : value));
}

/** A value that validates against `schema`. */
export function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  const base = baseArbitrary(schema);
  return schema.nullable ? fc.oneof(fc.constant(null), base) : base;
}

function baseArbitrary(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.type === 'object' && schema.oneOf?.every((choice) => Object.keys(choice).join() === 'required'))
    return exactlyOneOf(schema);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map(arbitraryOf));
  if (schema.allOf) return arbitraryOf(Object.assign({}, ...schema.allOf) as Schema);
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = arbitraryOf(schema.items ?? {});
      const constraints = {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? LONGEST_ARRAY, LONGEST_ARRAY)),
      };
      return schema.uniqueItems
        ? fc.uniqueArray(items, { ...constraints, selector: (value) => JSON.stringify(value) })
        : fc.array(items, constraints);
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, arbitraryOf(value)]),
      );
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** `oneOf: [{required:[a]}, {required:[b]}]` beside the properties: one of a and b, never both. */
function exactlyOneOf(schema: Schema): fc.Arbitrary<unknown> {
  const { oneOf = [], ...object } = schema;
  const exclusive = oneOf.flatMap((choice) => choice.required ?? []);
  return fc.oneof(
    ...oneOf.map((choice) => {
      const others = exclusive.filter((key) => !choice.required?.includes(key));
      const properties = Object.fromEntries(
        Object.entries(object.properties ?? {}).filter(([key]) => !others.includes(key)),
      );
      return arbitraryOf({
        ...object,
        properties,
        required: [...(object.required ?? []), ...(choice.required ?? [])],
      });
    }),
  );
}

/** One way to break a request part, with what it breaks (for the failure report). */
export interface Breakage {
  what: string;
  apply(value: Record<string, unknown>): Record<string, unknown>;
}

const WRONG_TYPE: Record<string, unknown> = {
  string: 12345,
  number: 'not-a-number',
  integer: 'not-a-number',
  boolean: 'not-a-boolean',
  array: 'not-an-array',
  object: 'not-an-object',
};

/**
 * Ways to make an object-shaped part (params, query, body) invalid from its schema alone:
 * a required property missing, a property of the wrong type, a string over its maxLength,
 * a value outside its enum. `asText`: the part travels as text (path, query), so a wrong
 * type is a word where a number belongs.
 */
export function breakagesOf(schema: Schema, asText: boolean): Breakage[] {
  const breakages: Breakage[] = [];
  const properties = schema.properties ?? {};
  const without = (key: string) => (value: Record<string, unknown>) => {
    const copy = { ...value };
    delete copy[key];
    return copy;
  };
  const withValue = (key: string, replacement: unknown) => (value: Record<string, unknown>) => ({
    ...value,
    [key]: replacement,
  });
  for (const key of schema.required ?? []) {
    if (!asText) breakages.push({ what: `${key} missing`, apply: without(key) });
  }
  for (const [key, property] of Object.entries(properties)) {
    const type = property.type ?? property.anyOf?.find((choice) => choice.type)?.type;
    const wrong = type === undefined ? undefined : WRONG_TYPE[type];
    if (wrong !== undefined && (!asText || type === 'number' || type === 'integer'))
      breakages.push({
        what: `${key} of the wrong type`,
        apply: withValue(key, asText ? String(wrong) : wrong),
      });
    if (property.type === 'string' && property.maxLength !== undefined && property.maxLength < 3_000_000)
      breakages.push({
        what: `${key} over maxLength ${property.maxLength}`,
        apply: withValue(key, 'x'.repeat(property.maxLength + 1)),
      });
    if (property.enum)
      breakages.push({ what: `${key} outside its enum`, apply: withValue(key, 'not-one-of-the-options') });
  }
  return breakages;
}

/** An OpenAPI 3.0 schema as JSON Schema draft 7, for ajv: `nullable` and boolean exclusive bounds. */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { nullable, exclusiveMinimum, exclusiveMaximum, ...rest } = schema as Schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    out[key] =
      key === 'properties' && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub)]))
        : toJsonSchema(value);
  }
  if (exclusiveMinimum === true) {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  } else if (typeof exclusiveMinimum === 'number') out.exclusiveMinimum = exclusiveMinimum;
  if (exclusiveMaximum === true) {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (typeof exclusiveMaximum === 'number') out.exclusiveMaximum = exclusiveMaximum;
  return nullable ? { anyOf: [out, { type: 'null' }] } : out;
}
