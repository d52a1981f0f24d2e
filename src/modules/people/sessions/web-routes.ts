import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicUrlOf } from '../../../config.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { sessionOf } from '../../../http/security.ts';
import { lookUpLink } from '../../../auth/one-time-links.ts';
import { endAllSessions, endSession } from '../../../auth/sessions.ts';
import { assertPasswordSignInAllowed } from '../../../auth/password-sign-in.ts';
import { clearSessionCookie, deviceCookie, openSession, rememberThisDevice, withRetryAfter } from './cookies.ts';
import { NewPassword, ResetRedeem, SecondFactorChallenge, SecondFactorSignIn, Session, SignIn, SignInLink, Token } from './schemas.ts';
import {
  changePassword,
  passwordSignIn,
  redeemSignInLink,
  requestPasswordReset,
  secondFactorSignIn,
  resetPassword,
  sessionBody,
  switchSessionWorkspace,
} from './service.ts';

/**
 * The web app's sign-in (web-only routes under /web/api): sessions, one-time
 * sign-in links, passwords and their reset. See docs/decisions.md, "The web app".
 */

const ResetRequest = Type.Object({ email: Type.String({ maxLength: 320 }) }, { additionalProperties: false });
const LinkStateBody = Type.Object(
  {
    state: Type.Union([Type.Literal('usable'), Type.Literal('used'), Type.Literal('expired'), Type.Literal('invalid')], {
      description: 'usable; used (it worked once already); expired; invalid (unknown, or replaced by a newer link).',
    }),
  },
  { additionalProperties: false },
);
const SwitchWorkspace = Type.Object({ company_id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

const web = (access: 'public' | 'signed-in') => ({ access, web: true }) as const;
const tags = ['web'];


/** A 202 without a body (send(null) would serialize the schema's null as the text `null`). */
const emptyAccepted = (reply: FastifyReply) => reply.code(202).send();

export async function sessionsWebRoutes(app: TypedApp) {
  const now = () => app.config.clock();
  const signIn = (request: FastifyRequest, reply: FastifyReply, userId: string, viaLink: boolean, method?: string) =>
    openSession(app, request, reply, { userId, viaLink, method });

  app.post(
    '/web/api/session',
    {
      config: web('public'),
      schema: {
        tags,
        operationId: 'signIn',
        summary: 'Sign in with e-mail and password',
        description:
          'Failed attempts are throttled (429 with Retry-After): from a browser that signed in to the account before, per account and browser; ' +
          'from elsewhere, per account and client address, per client address, and per account. A sign-in sets a long-lived sheaf_device cookie. ' +
          'An account with two-factor codes gets 202 with a challenge instead of a session: POST /web/api/session/two-factor with the code opens it.',
        body: SignIn,
        response: { 200: Session, 202: SecondFactorChallenge, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const attempt = { ...request.body, address: request.ip, device: deviceCookie(request), userAgent: request.headers['user-agent'], now: now() };
      const userId = await withRetryAfter(reply, passwordSignIn(app.db, attempt));
      await assertPasswordSignInAllowed(app.db, userId);
      return signIn(request, reply, userId, false);
    },
  );

  app.post(
    '/web/api/session/two-factor',
    {
      config: web('public'),
      schema: {
        tags,
        operationId: 'signInSecondFactor',
        summary: 'The second step of a sign-in: a two-factor code or a recovery code',
        description:
          'For the challenge a sign-in (password, one-time link, reset or invitation) answered with 202. Wrong codes are throttled as wrong passwords are ' +
          '(429 with Retry-After); a code is accepted once (401 invalid_code for a used one); a recovery code works once.',
        body: SecondFactorSignIn,
        response: { 200: Session, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const attempt = { ...request.body, address: request.ip, device: deviceCookie(request), userAgent: request.headers['user-agent'], now: now() };
      const pending = await withRetryAfter(reply, secondFactorSignIn(app.db, app.config.secretKeys, attempt));
      const body = await openSession(app, request, reply, { ...pending, secondFactorDone: true });
      if ('second_factor_required' in body) throw new Error('openSession asked for a second factor after one');
      return body;
    },
  );

  app.get(
    '/web/api/session',
    {
      config: web('signed-in'),
      schema: { tags, operationId: 'getSession', summary: 'The signed-in person, their workspaces and the CSRF token', response: { 200: Session, ...ErrorResponses } },
    },
    async (request) => sessionBody(app.db, sessionOf(request)),
  );

  app.delete(
    '/web/api/session',
    { config: web('signed-in'), schema: { tags, operationId: 'signOut', summary: 'Sign out', response: { 204: Type.Null(), ...ErrorResponses } } },
    async (request, reply) => {
      await endSession(app.db, sessionOf(request).id);
      clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/web/api/sessions',
    {
      config: web('signed-in'),
      schema: { tags, operationId: 'signOutEverywhere', summary: 'Sign out everywhere (every session of the person)', response: { 204: Type.Null(), ...ErrorResponses } },
    },
    async (request, reply) => {
      await endAllSessions(app.db, sessionOf(request).user_id);
      clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/web/api/session/workspace',
    {
      config: web('signed-in'),
      schema: { tags, operationId: 'switchWorkspace', summary: 'Switch to another of your workspaces', body: SwitchWorkspace, response: { 200: Session, ...ErrorResponses } },
    },
    async (request) => switchSessionWorkspace(app.db, sessionOf(request), request.body.company_id),
  );

  app.post(
    '/web/api/sign-in-links/redeem',
    {
      config: web('public'),
      schema: { tags, operationId: 'redeemSignInLink', summary: 'Sign in with a one-time link', body: SignInLink, response: { 200: Session, 202: SecondFactorChallenge, ...ErrorResponses } },
    },
    async (request, reply) => signIn(request, reply, await redeemSignInLink(app.db, request.body, now()), true),
  );

  app.put(
    '/web/api/password',
    {
      config: web('signed-in'),
      schema: {
        tags,
        operationId: 'setPassword',
        summary: 'Set or change your password',
        description:
          'The current password is required when you have one, except in a session opened by a one-time link within the last hour. Your other sessions end.',
        body: NewPassword,
        response: { 204: Type.Null(), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      await changePassword(app.db, session, request.body, now());
      // The new password forgot the account's devices; this browser just proved itself.
      await rememberThisDevice(app, request, reply, session.user_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/web/api/password-resets',
    {
      config: web('public'),
      schema: {
        tags,
        operationId: 'requestPasswordReset',
        summary: 'E-mail a password-reset link',
        description:
          'Always 202, whether or not the address belongs to an account, and at once (the e-mail is made after the answer), so neither the answer nor its timing tells which addresses exist. One e-mail per person per minute; the earlier link works meanwhile.',
        body: ResetRequest,
        response: { 202: Type.Null(), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      // Not awaited: the lookup, the link and the e-mail take longer for an address with an
      // account than without, and the answer's timing would tell which addresses exist.
      const at = now();
      app.afterAnswer.run(request.log, 'a password reset', () => requestPasswordReset(app.db, request.body.email, publicUrlOf(app.config), at));
      return emptyAccepted(reply);
    },
  );

  app.post(
    '/web/api/password-resets/lookup',
    {
      config: web('public'),
      schema: {
        tags,
        operationId: 'lookUpPasswordReset',
        summary: 'Whether a reset link can still be used, without using it',
        description: 'The reset page asks when it opens, so a used or expired link says so before anyone types a password. Always 200; the state names nobody.',
        body: Token,
        response: { 200: LinkStateBody, ...ErrorResponses },
      },
    },
    async (request) => ({ state: await lookUpLink(app.db, request.body.token, 'password_reset', now()) }),
  );

  app.post(
    '/web/api/password-resets/redeem',
    {
      config: web('public'),
      schema: {
        tags,
        operationId: 'redeemPasswordReset',
        summary: 'Choose a new password with a reset link',
        description: 'Ends every other session of the person and signs this browser in (202 with a challenge when they have two-factor codes).',
        body: ResetRedeem,
        response: { 200: Session, 202: SecondFactorChallenge, ...ErrorResponses },
      },
    },
    async (request, reply) => signIn(request, reply, await resetPassword(app.db, request.body, now()), true, 'reset'),
  );
}
