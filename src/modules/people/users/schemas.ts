import { Type } from '@sinclair/typebox';
import { PageQuery } from '../../../http/pagination.ts';

/** GET /api/v2/users: the filters and the page. */
export const UsersQuery = Type.Object(
  {
    is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    updated_since: Type.Optional(Type.String({ format: 'date-time' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);
