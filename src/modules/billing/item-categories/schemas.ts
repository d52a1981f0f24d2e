import { Type, type Static } from '@sinclair/typebox';
import { createBody, patchBody } from '../../../http/schemas.ts';
import { CATEGORY_NAME_MAX } from './rules.ts';

/** The bodies and answer of the item categories' web routes. */

const writable = {
  name: Type.String({ minLength: 1, maxLength: CATEGORY_NAME_MAX, description: 'Unique in the workspace, ignoring case. Lines keep the kind they were given.' }),
  is_active: Type.Boolean({ description: 'false archives the category (no longer offered for new kinds), true restores it.' }),
};

export const ITEM_CATEGORY_WRITABLE = ['name', 'is_active'] as const;
export const ITEM_CATEGORY_READ_ONLY = ['id', 'is_builtin', 'created_at', 'updated_at'] as const;

export const CreateBody = createBody({ name: writable.name }, ['name']);
export const PatchBody = patchBody(writable);

export type CreateInput = Static<typeof CreateBody>;
export type PatchInput = Static<typeof PatchBody>;

export const ItemCategorySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    is_builtin: Type.Boolean({ description: 'Service and Product: in every workspace, never renamed or archived.' }),
    is_active: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
