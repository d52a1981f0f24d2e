import { Type } from '@sinclair/typebox';
import { publicUrlOf } from '../../../config.ts';
import { IdParams, type TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { sessionToken } from '../../../auth/authenticate.ts';
import { deviceCookie, openSession, withRetryAfter, SecondFactorChallenge, Session, Token } from '../sessions/index.ts';
import { Acceptance, Invitation, NewInvitation, Preview } from './schemas.ts';
import { acceptInvitation, createInvitation, listInvitations, lookUpInvitation, resendInvitation, revokeInvitation } from './service.ts';

/**
 * Invitations (web-only routes): owners and administrators invite, list, resend
 * and revoke; the invited person looks the link up and accepts it without a
 * session (the link is the credential). See docs/decisions.md, "Invitations".
 */

const admin = { access: 'administrator', web: true } as const;
const open = { access: 'public', web: true } as const;
const tags = ['web'];

export async function invitationsWebRoutes(app: TypedApp) {
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

  app.post(
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
    async (request, reply) => reply.code(201).send(await createInvitation(app.db, principalOf(request), request.body, baseUrl(), now())),
  );

  app.post(
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

  app.delete(
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
      return reply.code(204).send(null);
    },
  );

  app.post(
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

  app.post(
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
        response: { 200: Session, 202: SecondFactorChallenge, ...ErrorResponses },
      },
    },
    async (request, reply) =>
      withRetryAfter(
        reply,
        (async () => {
          const acceptance = { ...request.body, sessionToken: sessionToken(request.headers), address: request.ip, device: deviceCookie(request) };
          const { userId, companyId } = await acceptInvitation(app.db, acceptance, now());
          return openSession(app, request, reply, { userId, viaLink: true, companyId, method: 'invitation' });
        })(),
      ),
  );
}
