import { Type, type Static, type TOptional, type TProperties, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from '../errors.ts';

/**
 * The error body every 4xx/5xx response has (see src/errors.ts), registered once with the app
 * (`app.addSchema`, src/http/openapi.ts) and referenced by every route, so the OpenAPI document
 * has it once, as `components.schemas.Error`: SDK generators make one error type of it, not one
 * per response (written out per route, it was half the document).
 */
export const ErrorSchema = Type.Object(
  {
    error: Type.Unsafe<ErrorCode>({
      type: 'string',
      enum: [...ERROR_CODES],
      description: 'machine-readable code, snake_case (src/errors.ts gives the status of each)',
    }),
    error_description: Type.String(),
    message: Type.String(),
    field: Type.Optional(Type.String()),
    refusal: Type.Optional(Type.String({ description: 'the rule that refused, as a word to translate (README, Errors)' })),
  },
  { $id: 'Error', additionalProperties: true },
);

/** A response schema of the error body: a reference to the one registered schema. */
export const ErrorBody = Type.Unsafe<Static<typeof ErrorSchema>>(Type.Ref('Error'));

/** Response schemas for the errors any authenticated route can give. */
export const ErrorResponses = {
  '4xx': ErrorBody,
  '5xx': ErrorBody,
};

/** A schema that also accepts null, as `anyOf: [schema, null]`. */
/** A body that must be empty (`{}`): an action that takes no input, with an unknown field a 400. */
export const EmptyBody = Type.Object({}, { additionalProperties: false });

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

/**
 * A create body's properties: the writable ones in their order, each optional but those in
 * `required`. The whole body where there is nothing else (createBody); else with
 * `Type.Object(…, { additionalProperties: false })` around them and any create-only property
 * before or after.
 */
export function createProperties<W extends TProperties, R extends keyof W & string = never>(writable: W, required: readonly R[] = []) {
  const out: TProperties = {};
  for (const [key, schema] of Object.entries(writable)) out[key] = required.includes(key as R) ? schema : Type.Optional(schema);
  return out as { [K in keyof W]: K extends R ? W[K] : TOptional<W[K]> };
}

/** A create body of the writable properties alone (see createProperties), no other property accepted. */
export const createBody = <W extends TProperties, R extends keyof W & string = never>(writable: W, required: readonly R[] = []) =>
  Type.Object(createProperties(writable, required), { additionalProperties: false });

/** A PATCH body: any of the writable properties, at least one. */
export const patchBody = <W extends TProperties>(writable: W) =>
  Type.Partial(Type.Object(writable), { additionalProperties: false, minProperties: 1 });
