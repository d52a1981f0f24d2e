import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isIsoDate, isStorableInstant, parseIsoInstant } from '../time/workspace-time.ts';
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { findUnstorableString } from './storable-strings.ts';

/**
 * Request validation. Bodies are strict: no type coercion ("5" is not a number),
 * no silently dropped properties (an unknown one is a 400 naming it). Query
 * strings and path parameters arrive as text, so they are coerced to the schema's
 * types, and are strict about unknown names too.
 */
function makeAjv(options: Options) {
  const ajv = new Ajv.default({
    allErrors: false,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    ...options,
  });
  addFormats.default(ajv);
  // `date` and `date-time` also keep to what the database can store (no year
  // 0000, nothing past 9999), so a far-off filter or field is a 400, never a
  // database error.
  ajv.addFormat('date', { type: 'string', validate: (value: string) => isIsoDate(value) });
  const dateTime = fullFormats['date-time'] as { validate: (value: string) => boolean };
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (value: string) => dateTime.validate(value) && isStorableInstant(new Date(value)),
  });
  // `updated_since`: "an ISO 8601 timestamp" (the spec), in any of its forms (UpdatedSince, route-kit.ts).
  ajv.addFormat('iso-instant', { type: 'string', validate: (value: string) => parseIsoInstant(value) !== null });
  return ajv;
}

type Validator = ((data: unknown, ...rest: unknown[]) => boolean) & { errors?: unknown; schemaEnv?: unknown };

/**
 * A part's validator that first refuses strings the database cannot store
 * (src/http/storable-strings.ts), as an Ajv-shaped error naming the field, then
 * runs the schema's own validator.
 */
function refusingUnstorable(inner: Validator): Validator {
  const validate: Validator = (data, ...rest) => {
    const found = findUnstorableString(data);
    if (found) {
      const what = found.inKey ? 'a property name' : 'a value';
      validate.errors = [
        {
          keyword: 'storable',
          instancePath: found.path,
          params: {},
          message: `has ${what} with a NUL character or an unpaired UTF-16 surrogate, which cannot be stored`,
        },
      ];
      return false;
    }
    const ok = inner(data, ...rest);
    validate.errors = inner.errors;
    return ok;
  };
  // Fastify passes the parent to Ajv validators (so a root value can be coerced) when it sees schemaEnv.
  validate.schemaEnv = inner.schemaEnv;
  return validate;
}

// One pair per process, not per app, and every validator compiled once per process: an app
// built again in the same process (a test file's fresh app) reuses them. Keyed by the part and
// the schema's JSON text, not the object: Fastify hands the compiler its own copy of a route's
// schema on every build, so Ajv's cache (by object) never hit and grew with every build.
let ajvs: { strict: Ajv.default; coercing: Ajv.default } | undefined;
const validators = new Map<string, Validator>();

export function registerValidation(app: FastifyInstance) {
  const { strict, coercing } = (ajvs ??= { strict: makeAjv({ coerceTypes: false }), coercing: makeAjv({ coerceTypes: 'array' }) });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const key = `${httpPart}:${JSON.stringify(schema)}`;
    let validate = validators.get(key);
    if (!validate) {
      const compiled = (httpPart === 'body' ? strict : coercing).compile(schema as FastifySchema) as Validator;
      // Bodies and query strings carry values to store or compare; a path parameter is an
      // id, and one that is not an id is the same 404 as an unknown one.
      const checksStrings = httpPart === 'body' || httpPart === 'querystring';
      validators.set(key, (validate = checksStrings ? refusingUnstorable(compiled) : compiled));
    }
    return validate as ReturnType<FastifySchemaCompiler<FastifySchema>>;
  });
}
