import { Type } from '@sinclair/typebox';
import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { AgentBody, MemberPatch, MemberSchema } from './schemas.ts';
import { changeMember, createAgent, endMemberSessions, listMembers } from './service.ts';

/**
 * The web app's Members page (web-only routes, owners and administrators):
 * list, change role, flags, activity and teammates, and create agent identities.
 * See docs/decisions.md, "Members and settings".
 */

const UserIdParams = Type.Object({ user_id: Type.String() }, { additionalProperties: false });

const admin = { access: 'administrator', web: true } as const;
const tags = ['web'];

export async function membersWebRoutes(app: TypedApp) {
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

  app.patch(
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
    async (request) => changeMember(app.db, principalOf(request), request.params.user_id, request.body),
  );

  app.delete(
    '/web/api/members/:user_id/sessions',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'endMemberSessions',
        summary: 'Sign a member out everywhere',
        description:
          'Ends every browser session of the person at once (in every workspace: a session may switch to any of them); their API keys stay. ' +
          'Recorded in the audit log; nobody is e-mailed. 404 for anyone who is not a member of this workspace; only an owner signs out an owner (403).',
        params: UserIdParams,
        response: { 200: Type.Object({ ended: Type.Integer({ description: 'How many sessions ended.' }) }, { additionalProperties: false }), ...ErrorResponses },
      },
    },
    async (request) => endMemberSessions(app.db, principalOf(request), request.params.user_id),
  );

  app.post(
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
    async (request, reply) => reply.code(201).send(await createAgent(app.db, principalOf(request), request.body)),
  );
}
