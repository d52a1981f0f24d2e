import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { publicUrlOf } from '../../../config.ts';
import { badRequest, notFound } from '../../../errors.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { sessionOf } from '../../../http/security.ts';
import { endAllSessions, endSessionOf, listSessions, openedByRecentLink } from '../../../auth/sessions.ts';
import { isId } from '../../../ids.ts';
import { assertCurrentPassword, sessionBody } from '../sessions/service.ts';
import { Preferences, Session } from '../sessions/routes.ts';
import { normalEmail } from '../users/email.ts';
import { DATE_FORMATS, DURATION_FORMATS, LANGUAGES, THEMES } from './rules.ts';
import { confirmEmailChange, profileOf, requestEmailChange, setFirstIdentity, updateProfile } from './service.ts';

/**
 * The signed-in person's own profile (web-only, session and CSRF): name,
 * e-mail address (confirmed by a link to the new one), preferences, sessions,
 * and the first owner's first sign-in. See docs/decisions.md, "Your own profile".
 */

const Profile = Type.Object({
  id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  pending_email: Nullable(Type.String({ description: 'An address waiting for its confirmation link to be opened.' })),
  has_password: Type.Boolean(),
  preferences: Preferences,
});

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Name = (maxLength: number) => Type.String({ maxLength });

const ProfilePatch = Type.Object(
  {
    first_name: Type.Optional(Name(255)),
    last_name: Type.Optional(Name(255)),
    language: Type.Optional(literals(LANGUAGES)),
    date_format: Type.Optional(literals(DATE_FORMATS)),
    duration_format: Type.Optional(literals(DURATION_FORMATS)),
    theme: Type.Optional(literals(THEMES)),
  },
  { additionalProperties: false },
);

const EmailChange = Type.Object(
  { email: Type.String({ maxLength: 320 }), current_password: Type.Optional(Type.String({ maxLength: 1024 })) },
  { additionalProperties: false },
);
const Token = Type.Object({ token: Type.String({ maxLength: 200 }) }, { additionalProperties: false });
const Identity = Type.Object(
  { first_name: Name(255), last_name: Name(255), email: Type.String({ maxLength: 320 }) },
  { additionalProperties: false },
);

const SessionItem = Type.Object({
  id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  last_seen_at: Type.String({ format: 'date-time', description: 'When it was last used (to the minute).' }),
  ip: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  current: Type.Boolean({ description: 'The session making this request.' }),
});
const SessionParams = Type.Object({ session_id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

const web = (access: 'public' | 'signed-in') => ({ access, web: true }) as const;
const tags = ['web'];

export async function profileRoutes(app: FastifyInstance) {
  const now = () => app.config.clock();

  app.get(
    '/web/api/profile',
    { config: web('signed-in'), schema: { tags, operationId: 'getProfile', summary: 'Your profile', response: { 200: Profile, ...ErrorResponses } } },
    async (request) => profileOf(app.db, sessionOf(request).user_id, now()),
  );

  app.patch<{ Body: Static<typeof ProfilePatch> }>(
    '/web/api/profile',
    {
      config: web('signed-in'),
      schema: {
        tags,
        operationId: 'updateProfile',
        summary: 'Change your name or preferences',
        description: 'Your name is your identity\'s: every workspace you belong to shows it. Change the e-mail address with POST /web/api/profile/email.',
        body: ProfilePatch,
        response: { 200: Profile, ...ErrorResponses },
      },
    },
    async (request) => updateProfile(app.db, sessionOf(request).user_id, request.body, now()),
  );

  app.post<{ Body: Static<typeof EmailChange> }>(
    '/web/api/profile/email',
    {
      config: web('signed-in'),
      schema: {
        tags,
        operationId: 'requestEmailChange',
        summary: 'Change your e-mail address (a confirmation link goes to the new one)',
        description:
          'Nothing changes until the link e-mailed to the new address is opened (once, within 24 hours); the old address is then told. ' +
          'An address another Sheaf account has is refused with 409 email_taken. The current password is required when you have one, ' +
          'except in a session opened by a one-time link within the last hour.',
        body: EmailChange,
        response: { 202: Profile, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      if (!openedByRecentLink(session, now())) await assertCurrentPassword(app.db, session.user_id, request.body.current_password);
      const profile = await requestEmailChange(app.db, {
        userId: session.user_id,
        companyId: session.company_id,
        email: normalEmail(request.body.email),
        baseUrl: publicUrlOf(app.config),
        now: now(),
      });
      return reply.code(202).send(profile);
    },
  );

  app.post<{ Body: Static<typeof Token> }>(
    '/web/api/profile/email/confirm',
    {
      // The token is the credential: the link may be opened on a device that is not signed in.
      config: web('public'),
      schema: {
        tags,
        operationId: 'confirmEmailChange',
        summary: 'Confirm a new e-mail address with the link sent to it',
        description: 'Works once, within 24 hours (400 link_invalid otherwise); 409 email_taken if another account took the address meanwhile.',
        body: Token,
        response: { 200: Type.Object({ email: Type.String() }), ...ErrorResponses },
      },
    },
    async (request) => ({ email: (await confirmEmailChange(app.db, request.body.token, now())).email }),
  );

  app.put<{ Body: Static<typeof Identity> }>(
    '/web/api/profile/identity',
    {
      config: web('signed-in'),
      schema: {
        tags,
        operationId: 'setFirstIdentity',
        summary: 'The first owner\'s real name and e-mail address, in place of the first start\'s placeholder',
        description:
          'Only while the session says needs_identity (409 afterwards). The address is set at once: the placeholder receives no mail, ' +
          'so there is nothing to confirm it from. An address another Sheaf account has is refused with 409 email_taken.',
        body: Identity,
        response: { 200: Session, ...ErrorResponses },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      await setFirstIdentity(app.db, session.user_id, { ...request.body, email: normalEmail(request.body.email) }, now());
      return sessionBody(app.db, session);
    },
  );

  app.get(
    '/web/api/profile/sessions',
    {
      config: web('signed-in'),
      schema: {
        tags,
        operationId: 'listOwnSessions',
        summary: 'Where you are signed in',
        response: { 200: Type.Object({ sessions: Type.Array(SessionItem) }), ...ErrorResponses },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const rows = await listSessions(app.db, session.user_id, now());
      return {
        sessions: rows.map((r) => ({
          id: r.id,
          created_at: r.created_at.toISOString(),
          last_seen_at: r.last_seen_at.toISOString(),
          ip: r.ip,
          user_agent: r.user_agent,
          current: r.id === session.id,
        })),
      };
    },
  );

  app.delete(
    '/web/api/profile/sessions',
    {
      config: web('signed-in'),
      schema: {
        tags,
        operationId: 'signOutElsewhere',
        summary: 'Sign out everywhere else (every session but this one)',
        response: { 204: Type.Null(), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      await endAllSessions(app.db, session.user_id, session.id);
      return reply.code(204).send();
    },
  );

  app.delete<{ Params: Static<typeof SessionParams> }>(
    '/web/api/profile/sessions/:session_id',
    {
      config: web('signed-in'),
      schema: {
        tags,
        operationId: 'endOwnSession',
        summary: 'Sign out one of your other sessions',
        description: 'The current session signs out with DELETE /web/api/session (400 here). Another person\'s session id is 404.',
        params: SessionParams,
        response: { 204: Type.Null(), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = request.params.session_id;
      if (id === session.id) throw badRequest('This is the session you are using: sign out instead.', { field: 'session_id' });
      if (!isId(id) || !(await endSessionOf(app.db, session.user_id, id))) throw notFound('session');
      return reply.code(204).send();
    },
  );
}
