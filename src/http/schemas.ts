import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** The error body every 4xx/5xx response has (see src/errors.ts). */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'machine-readable code, snake_case' }),
    error_description: Type.String(),
    message: Type.String(),
    field: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** Response schemas for the errors any authenticated route can give. */
export const ErrorResponses = {
  '4xx': ErrorBody,
  '5xx': ErrorBody,
};

/** A schema that also accepts null, as `anyOf: [schema, null]`. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A schema that also accepts null as one `type: [t, 'null']` (for simple types):
 * Ajv reports a wrong value against the field's own keywords, not against each union branch.
 */
export const OrNull = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type as string, 'null'] });

/** A string limited to the listed values. */
export const Enum = <const T extends string>(values: readonly T[], description = '') =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });
