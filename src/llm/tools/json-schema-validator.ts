import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/** Returns the problems with `value` (one line each), or an empty list when it matches. */
export type JsonSchemaCheck = (value: unknown) => string[];

// `strict: false`: tool schemas come from users and providers' dialects (descriptions on $ref, `format`s Ajv
// does not know); an unknown keyword must not make a tool unusable.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const cache = new WeakMap<object, JsonSchemaCheck>();

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the arguments' : error.instancePath;
  if (error.keyword === 'additionalProperties') {
    return `${where} has an unexpected property "${String(error.params['additionalProperty'])}"`;
  }
  if (error.keyword === 'enum') {
    return `${where} ${error.message ?? 'is invalid'}: ${JSON.stringify(error.params['allowedValues'])}`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}

/**
 * Compiles a JSON Schema (draft-07 keywords, which is what zod and the providers emit) once per schema object.
 * A `$schema` naming another draft is ignored rather than rejected. Throws when the schema itself is invalid.
 */
export function compileJsonSchema(schema: Record<string, unknown>): JsonSchemaCheck {
  const cached = cache.get(schema);
  if (cached) return cached;
  const { $schema: _ignored, ...body } = schema;
  const validate: ValidateFunction = ajv.compile(body);
  const check: JsonSchemaCheck = (value) => (validate(value) ? [] : (validate.errors ?? []).map(describe));
  cache.set(schema, check);
  return check;
}
