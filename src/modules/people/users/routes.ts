import { Type } from '@sinclair/typebox';
import { personalCapabilities } from '../../../access/policy.ts';
import { EnvelopeSchema, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { NoQuery, type TypedApp } from '../../../http/route-kit.ts';
import { rolesOf } from './presenter.ts';
import { UsersQuery } from './schemas.ts';
import { listUsers } from './service.ts';

const Roles = Type.Array(Type.String(), { description: 'e.g. owner, administrator, manager, member, contractor' });

const FullProfile = Type.Object({
  id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  roles: Roles,
  user_type: Type.Union([Type.Literal('human'), Type.Literal('agent')]),
  company: Type.Object({ id: Type.String(), name: Type.String() }),
});

const PersonalProfile = Type.Object({
  id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  is_active: Type.Boolean(),
  is_contractor: Type.Boolean(),
  roles: Roles,
  capabilities: Type.Object({
    can_read_own_time_entries: Type.Boolean(),
    can_read_users: Type.Boolean(),
    can_read_own_profile: Type.Boolean(),
    can_read_clients: Type.Boolean(),
    can_read_projects: Type.Boolean(),
  }),
});

const DirectoryUser = Type.Object({
  id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  is_active: Type.Boolean(),
  is_contractor: Type.Boolean(),
  roles: Roles,
});

const MemberUser = Type.Composite([
  DirectoryUser,
  Type.Object({
    email: Type.String(),
    user_type: Type.String(),
    permissions: Type.Array(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  }),
]);


export async function usersRoutes(app: TypedApp) {
  app.get(
    '/api/v2/users/me',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'The current user',
        description:
          'Full-access keys and identity-provider tokens get the profile with `company` and `user_type`; a personal sync key gets the sync profile with `capabilities`.',
        querystring: NoQuery,
        response: { 200: Type.Union([FullProfile, PersonalProfile]), ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      // Object literals, not spreads of a shared base: this runs on every users/me request,
      // and a spread cost more than the rest of the handler (CPU profile, docs/decisions.md).
      if (p.kind === 'personal') {
        return {
          id: p.userId,
          first_name: p.firstName,
          last_name: p.lastName,
          email: p.email,
          is_active: p.isActive,
          is_contractor: p.isContractor,
          roles: rolesOf(p.role, p.isContractor),
          capabilities: personalCapabilities((method, url) => app.hasRoute({ method, url })),
        };
      }
      return {
        id: p.userId,
        first_name: p.firstName,
        last_name: p.lastName,
        email: p.email,
        roles: rolesOf(p.role, p.isContractor),
        user_type: p.userType,
        company: { id: p.companyId, name: p.companyName },
      };
    },
  );

  app.get(
    '/api/v2/users',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'List users',
        description:
          'Owners, administrators and managers get every membership with e-mail, type and permissions. Personal sync keys and other members get the directory: internal human memberships only, with exactly `id`, `first_name`, `last_name`, `is_active`, `is_contractor`, `roles`. A personal sync key accepts only `is_active`, `page` and `per_page`.',
        querystring: UsersQuery,
        response: {
          200: Type.Object({ users: Type.Array(Type.Union([MemberUser, DirectoryUser])), ...EnvelopeSchema }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => {
      const page = pageParams(request.query);
      const { users, total } = await listUsers(app.db, principalOf(request), request.query, page);
      return { users, ...pageEnvelope(request, page, total) };
    },
  );
}
