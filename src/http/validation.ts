import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isIsoDate, isStorableInstant } from '../time/workspace-time.ts';
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
  // `date` and `date-time` also keep to what the database can store (no year
  // 0000, nothing past 9999), so a far-off filter or field is a 400, never a
  // database error.
  ajv.addFormat('date', { type: 'string', validate: (value: string) => isIsoDate(value) });
  const dateTime = fullFormats['date-time'] as { validate: (value: string) => boolean };
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (value: string) => dateTime.validate(value) && isStorableInstant(new Date(value)),
  });
  return ajv;
}

export function registerValidation(app: FastifyInstance) {
  const strict = makeAjv({ coerceTypes: false });
  const coercing = makeAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? strict.compile(schema as FastifySchema) : coercing.compile(schema as FastifySchema),
  );
}
