import { Type } from '@sinclair/typebox';
import { MANAGER_PERMISSIONS } from '../../../db/types.ts';
import { Enum, Nullable } from '../../../http/schemas.ts';
import { ROLES } from '../users/index.ts';
import { PageLanguage } from '../sessions/index.ts';

/** An invitation as the Members page shows it, a new one, its preview and its acceptance. */

const RoleSchema = Enum(ROLES, 'owner, administrator, manager, member or client');
const InvitedBy = Nullable(Type.Object({ id: Type.String(), name: Type.String() }, { description: 'null when that account was deleted' }));

export const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  permissions: Type.Array(Type.String()),
  is_contractor: Type.Boolean(),
  invited_by: InvitedBy,
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  status: Enum(['pending', 'accepted', 'revoked', 'expired']),
});

export const NewInvitation = Type.Object(
  {
    email: Type.String({ maxLength: 320 }),
    role: RoleSchema,
    permissions: Type.Optional(
      Type.Array(Enum(MANAGER_PERMISSIONS), { maxItems: MANAGER_PERMISSIONS.length, uniqueItems: true, description: 'manager role only' }),
    ),
    is_contractor: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const Acceptance = Type.Object(
  {
    token: Type.String({ maxLength: 200 }),
    first_name: Type.Optional(Type.String({ maxLength: 255 })),
    last_name: Type.Optional(Type.String({ maxLength: 255 })),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    language: PageLanguage,
  },
  { additionalProperties: false },
);

export const Preview = Type.Object({
  workspace_name: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  invited_by: InvitedBy,
  account_exists: Type.Boolean({
    description:
      'true: the address has an account with a password, and accepting needs that password (or a session of that account). ' +
      'false: accepting sets up the account and needs first_name and a new password.',
  }),
});
