import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { publicUrlOf } from '../../../config.ts';
import { MANAGER_PERMISSIONS } from '../../../db/types.ts';
import { ApiError } from '../../../errors.ts';
import { Enum, ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { sessionToken } from '../../../auth/authenticate.ts';
import { endSession, findSession } from '../../../auth/sessions.ts';
import { ROLES } from '../users/rules.ts';
import { deviceCookie, openSession, Session } from '../sessions/routes.ts';
import {
  acceptInvitation,
  createInvitation,
  listInvitations,
  lookUpInvitation,
  resendInvitation,
  revokeInvitation,
  type InvitationInput,
} from './service.ts';

/**
 * Invitations (web-only routes): owners and administrators invite, list, resend
 * and revoke; the invited person looks the link up and accepts it without a
 * session (the link is the credential). See docs/decisions.md, "Invitations".
 */

const RoleSchema = Enum(ROLES, 'owner, administrator, manager, member or client');
const InvitedBy = Nullable(Type.Object({ id: Type.String(), name: Type.String() }, { description: 'null when that account was deleted' }));

const Invitation = Type.Object({
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

const NewInvitation = Type.Object(
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

const Token = Type.Object({ token: Type.String({ maxLength: 200 }) }, { additionalProperties: false });
const Acceptance = Type.Object(
  {
    token: Type.String({ maxLength: 200 }),
    first_name: Type.Optional(Type.String({ maxLength: 255 })),
    last_name: Type.Optional(Type.String({ maxLength: 255 })),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  { additionalProperties: false },
);

const Preview = Type.Object({
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

const IdParams = Type.Object({ id: Type.String() }, { additionalProperties: false });

const admin = { access: 'administrator', web: true } as const;
const open = { access: 'public', web: true } as const;
const tags = ['web'];

export async function invitationsRoutes(app: FastifyInstance) {
  const now = () => app.config.clock();
  const baseUrl = () => publicUrlOf(app.config);

  app.get(
    '/web/api/invitations',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'listInvitations',
        summary: 'Every invitation of the workspace, newest first, with its status',
        response: { 200: Type.Object({ invitations: Type.Array(Invitation) }), ...ErrorResponses },
      },
    },
    async (request) => ({ invitations: await listInvitations(app.db, principalOf(request), now()) }),
  );

  app.post<{ Body: Static<typeof NewInvitation> }>(
    '/web/api/invitations',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'createInvitation',
        summary: 'Invite someone by e-mail (the e-mail carries a one-time link, valid 7 days)',
        description:
          'Only an owner invites an owner (403). 409 when the address is a member already or has a pending invitation (resend that one).',
        body: NewInvitation,
        response: { 201: Invitation, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const invitation = await createInvitation(app.db, principalOf(request), request.body as InvitationInput, baseUrl(), now());
      return reply.code(201).send(invitation);
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/web/api/invitations/:id/resend',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'resendInvitation',
        summary: 'E-mail the invitation again with a new link and a new expiry; the previous link stops working',
        params: IdParams,
        response: { 200: Invitation, ...ErrorResponses },
      },
    },
    async (request) => resendInvitation(app.db, principalOf(request), request.params.id, baseUrl(), now()),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/web/api/invitations/:id',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'revokeInvitation',
        summary: 'Revoke an invitation: its link stops working',
        params: IdParams,
        response: { 204: Type.Null(), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await revokeInvitation(app.db, principalOf(request), request.params.id, now());
      return reply.code(204).send();
    },
  );

  app.post<{ Body: Static<typeof Token> }>(
    '/web/api/invitations/lookup',
    {
      config: open,
      schema: {
        tags,
        operationId: 'lookUpInvitation',
        summary: 'What an invitation link is for (the acceptance page), without using it',
        body: Token,
        response: { 200: Preview, ...ErrorResponses },
      },
    },
    async (request) => lookUpInvitation(app.db, request.body.token, now()),
  );

  app.post<{ Body: Static<typeof Acceptance> }>(
    '/web/api/invitations/accept',
    {
      config: open,
      schema: {
        tags,
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation and sign in to its workspace',
        description:
          'A new account needs first_name and a password (12 to 256 characters); an existing account needs its password ' +
          '(throttled like signing in), unless the browser is signed in as that account. The link works once.',
        body: Acceptance,
        response: { 200: Session, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const cookie = sessionToken(request.headers);
      const current = cookie ? await findSession(app.db, cookie, now()) : null;
      try {
        const { userId, companyId } = await acceptInvitation(
          app.db,
          { ...request.body, signedInUserId: current?.user_id, address: request.ip, device: deviceCookie(request) },
          now(),
        );
        // The new session's cookie replaces this browser's current one, so that session would only linger.
        if (current) await endSession(app.db, current.id);
        return await openSession(app, request, reply, { userId, viaLink: true, companyId });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'rate_limited') reply.header('Retry-After', String(err.extras.retry_after));
        throw err;
      }
    },
  );
}
