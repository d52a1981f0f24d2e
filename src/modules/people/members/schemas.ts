import { Type } from '@sinclair/typebox';
import { MANAGER_PERMISSIONS } from '../../../db/types.ts';
import { Enum, OrNull } from '../../../http/schemas.ts';
import { ROLES } from '../users/index.ts';

/** The Members page's records: a membership as the page shows it, a change, a new agent. */

const Permission = Enum(MANAGER_PERMISSIONS, 'a manager permission flag');
const RoleSchema = Enum(ROLES, 'owner, administrator, manager, member or client');

export const MemberSchema = Type.Object({
  id: Type.String({ description: 'The user id' }),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  user_type: Enum(['human', 'agent']),
  role: RoleSchema,
  permissions: Type.Array(Type.String()),
  is_contractor: Type.Boolean(),
  is_active: Type.Boolean(),
  expected_weekly_hours: OrNull(Type.String({ description: 'hours, a decimal string such as "40.00"' })),
  teammate_ids: Type.Array(Type.String(), { description: 'A manager\u2019s assigned teammates (empty for other roles)' }),
});

export const MemberPatch = Type.Object(
  {
    role: Type.Optional(RoleSchema),
    permissions: Type.Optional(Type.Array(Permission, { maxItems: MANAGER_PERMISSIONS.length, uniqueItems: true })),
    is_contractor: Type.Optional(Type.Boolean()),
    is_active: Type.Optional(Type.Boolean()),
    expected_weekly_hours: Type.Optional(OrNull(Type.String({ maxLength: 10, description: 'hours from 0 to 168, e.g. "37.5"' }))),
    teammate_ids: Type.Optional(
      Type.Array(Type.String({ format: 'uuid' }), { maxItems: 10000, uniqueItems: true, description: 'The manager\u2019s teammates, all of them' }),
    ),
  },
  { additionalProperties: false },
);

export const AgentBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    role: Type.Optional(Enum(['administrator', 'manager', 'member'], 'default member')),
    permissions: Type.Optional(Type.Array(Permission, { maxItems: MANAGER_PERMISSIONS.length, uniqueItems: true })),
  },
  { additionalProperties: false },
);
