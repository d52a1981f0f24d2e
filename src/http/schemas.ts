import { Type } from '@sinclair/typebox';

/** The error body every 4xx/5xx response has (see src/http/errors.ts). */
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
