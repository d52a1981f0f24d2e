import { Type } from '@sinclair/typebox';
import { publicUrlOf } from '../../../config.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { sessionOf } from '../../../http/security.ts';
import { endAllSessions } from '../../../auth/sessions.ts';
import { Session, Token } from '../sessions/index.ts';
import { EmailChange, Identity, ProfilePatch, ProfileSchema as Profile } from './schemas.ts';
import { confirmEmailChange, endOwnSession, ownSessions, profileOf, requestEmailChange, setFirstIdentity, updateProfile } from './service.ts';

/**
 * The signed-in person's own profile (web-only, session and CSRF): name,
 * e-mail address (confirmed by a link to the new one), preferences, sessions,
 * and the first owner's first sign-in. See docs/decisions.md, "Your own profile".
 */

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

export async function profileWebRoutes(app: TypedApp) {
  const now = () => app.config.clock();

  app.get(
    '/web/api/profile',
    { config: web('signed-in'), schema: { tags, operationId: 'getProfile', summary: 'Your profile', response: { 200: Profile, ...ErrorResponses } } },
    async (request) => profileOf(app.db, sessionOf(request).user_id, now()),
  );

  app.patch(
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

  app.post(
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
    async (request, reply) =>
      reply.code(202).send(await requestEmailChange(app.db, sessionOf(request), request.body, { baseUrl: publicUrlOf(app.config), now: now() })),
  );

  app.post(
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

  app.put(
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
    async (request) => setFirstIdentity(app.db, sessionOf(request), request.body, now()),
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
    async (request) => ({ sessions: await ownSessions(app.db, sessionOf(request), now()) }),
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
      return reply.code(204).send(null);
    },
  );

  app.delete(
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
      await endOwnSession(app.db, sessionOf(request), request.params.session_id);
      return reply.code(204).send(null);
    },
  );
}
