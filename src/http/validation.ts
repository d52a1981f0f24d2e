import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

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
  return ajv;
}

export function registerValidation(app: FastifyInstance) {
  const strict = makeAjv({ coerceTypes: false });
  const coercing = makeAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? strict.compile(schema as FastifySchema) : coercing.compile(schema as FastifySchema),
  );
}
