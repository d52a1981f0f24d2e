import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { MANAGER_PERMISSIONS } from '../../../db/types.ts';
import { Enum, ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { ROLES } from '../users/rules.ts';
import { changeMember, createAgent, listMembers, type MemberChange } from './service.ts';

/**
 * The web app's Members page (web-only routes, owners and administrators):
 * list, change role, flags, activity and teammates, and create agent identities.
 * See docs/decisions.md, "Members and settings".
 */

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

const MemberPatch = Type.Object(
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

const AgentBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    role: Type.Optional(Enum(['administrator', 'manager', 'member'], 'default member')),
    permissions: Type.Optional(Type.Array(Permission, { maxItems: MANAGER_PERMISSIONS.length, uniqueItems: true })),
  },
  { additionalProperties: false },
);

const UserIdParams = Type.Object({ user_id: Type.String() }, { additionalProperties: false });

const admin = { access: 'administrator', web: true } as const;
const tags = ['web'];

export async function membersRoutes(app: FastifyInstance) {
  app.get(
    '/web/api/members',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'listMembers',
        summary: 'Every membership of the workspace, active or not, with teammates',
        response: { 200: Type.Object({ members: Type.Array(MemberSchema) }), ...ErrorResponses },
      },
    },
    async (request) => ({ members: await listMembers(app.db, principalOf(request).companyId) }),
  );

  app.patch<{ Params: Static<typeof UserIdParams>; Body: Static<typeof MemberPatch> }>(
    '/web/api/members/:user_id',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'updateMember',
        summary: 'Change a member: role, manager permissions, contractor, active, expected hours, teammates',
        description:
          'Applies on the member\u2019s next request. Only an owner makes someone an owner or changes an owner (403). ' +
          'The last active owner cannot be demoted or deactivated (409). `permissions` apply to managers only; ' +
          'leaving the manager role clears them and the teammates. `teammate_ids` replaces the manager\u2019s teammates.',
        params: UserIdParams,
        body: MemberPatch,
        response: { 200: MemberSchema, ...ErrorResponses },
      },
    },
    async (request) => changeMember(app.db, principalOf(request), request.params.user_id, request.body as MemberChange),
  );

  app.post<{ Body: Static<typeof AgentBody> }>(
    '/web/api/agents',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'createAgent',
        summary: 'Create an agent identity (no sign-in; it acts only through the keys bound to it)',
        description: 'Its e-mail is a generated address under .invalid, which no mail reaches.',
        body: AgentBody,
        response: { 201: MemberSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body as Parameters<typeof createAgent>[2];
      return reply.code(201).send(await createAgent(app.db, principalOf(request), body));
    },
  );
}
