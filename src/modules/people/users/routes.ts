import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { personalCapabilities, seesFullUserRecords } from '../../../access/policy.ts';
import { withTenant } from '../../../db/tenant.ts';
import { ApiError } from '../../../errors.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { NoQuery, typed } from '../../../http/route-kit.ts';
import { directoryItem, memberItem, rolesOf } from './presenter.ts';
import { listMembers } from './queries.ts';

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

const UsersQuery = Type.Object(
  {
    is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    updated_since: Type.Optional(Type.String({ format: 'date-time' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export async function usersRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
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
      const base = { id: p.userId, first_name: p.firstName, last_name: p.lastName, email: p.email };
      if (p.kind === 'personal') {
        return {
          ...base,
          is_active: p.isActive,
          is_contractor: p.isContractor,
          roles: rolesOf(p.role, p.isContractor),
          capabilities: personalCapabilities((method, url) => app.hasRoute({ method, url })),
        };
      }
      return {
        ...base,
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
      const p = principalOf(request);
      const query = request.query;
      if (p.kind === 'personal' && query.updated_since !== undefined) {
        throw new ApiError('unknown_field', "A personal sync key cannot use the query parameter 'updated_since'.", {
          field: 'updated_since',
        });
      }
      const full = seesFullUserRecords(p);
      const page = pageParams(query);
      const { rows, total } = await withTenant(app.db, p.companyId, (trx) =>
        listMembers(
          trx,
          p.companyId,
          {
            isActive: query.is_active === undefined ? undefined : query.is_active === 'true',
            updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
            directoryOnly: !full,
          },
          page,
        ),
      );
      return { users: rows.map(full ? memberItem : directoryItem), ...pageEnvelope(request, page, total) };
    },
  );
}
