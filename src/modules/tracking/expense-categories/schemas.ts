import { Type } from '@sinclair/typebox';
import { Nullable, createBody, patchBody } from '../../../http/schemas.ts';

/** The schemas of expense categories: the API's bodies and answer; rules.ts takes its input type from the update's. */

const writable = {
  name: Type.String({ minLength: 1, maxLength: 255, description: 'Unique in the workspace, ignoring case.' }),
  unit_name: Nullable(Type.String({ maxLength: 64, description: 'What a unit is (e.g. "1K tokens", "km"); with unit_price, or null.' })),
  unit_price: Nullable(
    Type.Number({ minimum: 0, description: 'Price of one unit, at most 6 decimal places; with unit_name, or null. Expenses may then be entered as units.' }),
  ),
  is_active: Type.Boolean({ description: 'false archives the category (no new expenses), true restores it.' }),
};

export const CreateBody = createBody(writable, ['name']);
export const PatchBody = patchBody(writable);

export const ExpenseCategorySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    unit_name: Nullable(Type.String()),
    unit_price: Nullable(Type.Number()),
    is_active: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
