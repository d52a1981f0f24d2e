import { Type } from '@sinclair/typebox';
import { UpdatedSince } from '../../../http/route-kit.ts';
import { PageQuery } from '../../../http/pagination.ts';

/** GET /api/v2/users: the filters and the page. */
export const UsersQuery = Type.Object(
  {
    is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    updated_since: UpdatedSince('only people whose membership or profile changed at or after it.'),
    ...PageQuery,
  },
  { additionalProperties: false },
);
