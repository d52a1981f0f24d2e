import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';
import { publicUrlOf } from '../../../config.ts';
import { ApiError } from '../../../errors.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { sessionOf } from '../../../http/security.ts';
import { assertAcceptablePassword } from '../../../auth/passwords.ts';
import { linkInvalid, lookUpLink, redeemLink } from '../../../auth/one-time-links.ts';
import {
  createSession,
  endAllSessions,
  endSession,
  openedByRecentLink,
  SESSION_COOKIE,
  SESSION_LIFETIME_MS,
  switchWorkspace,
} from '../../../auth/sessions.ts';
import { normalEmail } from '../users/email.ts';
import {
  beginSignInAttempt,
  DEVICE_COOKIE,
  DEVICE_LIFETIME_MS,
  rememberDevice,
  signInSucceeded,
  throttled,
} from '../../../auth/sign-in-throttle.ts';
import { DATE_FORMATS, DURATION_FORMATS, LANGUAGES, THEMES } from '../profile/rules.ts';
import { assertCurrentPassword, checkPassword, requestPasswordReset, sessionBody, setPassword } from './service.ts';

/**
 * The web app's sign-in (web-only routes under /web/api): sessions, one-time
 * sign-in links, passwords and their reset. See docs/decisions.md, "The web app".
 */

/** A person's display preferences (Settings → Profile). */
export const Preferences = Type.Object({
  language: Type.Union(LANGUAGES.map((l) => Type.Literal(l)), { description: 'The web app\'s language.' }),
  date_format: Type.Union(DATE_FORMATS.map((f) => Type.Literal(f)), { description: 'How dates are shown.' }),
  duration_format: Type.Union(DURATION_FORMATS.map((f) => Type.Literal(f)), { description: 'Durations as hours:minutes (1:30) or decimal hours (1.50).' }),
  theme: Type.Union(THEMES.map((t) => Type.Literal(t)), { description: 'The colour theme: the device\'s (system), light or dark.' }),
});

const Role = Type.String({ description: 'owner, administrator, manager, member or client' });
export const Session = Type.Object({
  user: Type.Object({
    id: Type.String(),
    email: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    has_password: Type.Boolean(),
    needs_identity: Type.Boolean({ description: 'The first start\'s placeholder owner: ask for a real name and e-mail address (PUT /web/api/profile/identity) first.' }),
    preferences: Preferences,
  }),
  workspace: Nullable(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      role: Role,
      permissions: Type.Array(Type.String()),
      is_contractor: Type.Boolean(),
      timezone: Type.String({ description: 'The workspace\'s IANA time zone: calendar days and instants are shown in it.' }),
      currency: Type.String({ description: 'The workspace\'s default currency (ISO 4217).' }),
      week_start: Type.String({ description: 'The first day of the workspace\'s week (monday … sunday).' }),
    }),
  ),
  workspaces: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), role: Role })),
  csrf_token: Type.String({ description: 'Send it back in X-CSRF-Token on every change made with this session.' }),
});

const SignIn = Type.Object(
  { email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);
const Token = Type.Object({ token: Type.String({ maxLength: 200 }) }, { additionalProperties: false });
const NewPassword = Type.Object(
  { current_password: Type.Optional(Type.String({ maxLength: 1024 })), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);
const ResetRequest = Type.Object({ email: Type.String({ maxLength: 320 }) }, { additionalProperties: false });
const ResetRedeem = Type.Object({ token: Type.String({ maxLength: 200 }), password: Type.String({ maxLength: 1024 }) }, { additionalProperties: false });
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


/** The session cookie: HttpOnly, SameSite=Lax, Secure over TLS; `maxAge` 0 clears it. */
function writeSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number) {
  reply.header(
    'Set-Cookie',
    stringifySetCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      path: '/',
      maxAge: maxAgeSeconds,
    }),
  );
}

const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, token: string) =>
  writeSessionCookie(request, reply, token, SESSION_LIFETIME_MS / 1000);
const clearSessionCookie = (request: FastifyRequest, reply: FastifyReply) => writeSessionCookie(request, reply, '', 0);

/** The `sheaf_device` cookie the request carries, if any (see src/auth/sign-in-throttle.ts). */
export function deviceCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || !header.includes(DEVICE_COOKIE)) return undefined;
  return parseCookie(header)[DEVICE_COOKIE] || undefined;
}

/**
 * Marks this browser as one that signed in to the account: a year-long cookie
 * (HttpOnly, SameSite=Lax, Secure over TLS) whose hash the server keeps with the
 * account, so failures made elsewhere never throttle this browser's sign-ins.
 */
async function rememberThisDevice(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, userId: string) {
  const token = await rememberDevice(app.db, userId, deviceCookie(request), app.config.clock());
  reply.header(
    'Set-Cookie',
    stringifySetCookie(DEVICE_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      path: '/',
      maxAge: DEVICE_LIFETIME_MS / 1000,
    }),
  );
}

/**
 * Opens a session for the person, sets its cookie and answers with the session
 * body: every way of signing in ends here (password, one-time links, accepting an
 * invitation). `companyId`: the workspace to open in (default: their first).
 */
export async function openSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { userId: string; viaLink: boolean; companyId?: string },
) {
  const { token, session } = await createSession(app.db, {
    userId: input.userId,
    companyId: input.companyId,
    viaLink: input.viaLink,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    now: app.config.clock(),
  });
  setSessionCookie(request, reply, token);
  await rememberThisDevice(app, request, reply, input.userId);
  return sessionBody(app.db, session);
}

export async function sessionRoutes(app: FastifyInstance) {
  const now = () => app.config.clock();
  const signIn = (request: FastifyRequest, reply: FastifyReply, userId: string, viaLink: boolean) =>
    openSession(app, request, reply, { userId, viaLink });

  app.post<{ Body: Static<typeof SignIn> }>(
    '/web/api/session',
    {
      config: web('public'),
      schema: {
        tags,
        operationId: 'signIn',
        summary: 'Sign in with e-mail and password',
        description:
          'Failed attempts are throttled (429 with Retry-After): from a browser that signed in to the account before, per account and browser; ' +
          'from elsewhere, per account and client address, per client address, and per account. A sign-in sets a long-lived sheaf_device cookie.',
        body: SignIn,
        response: { 200: Session, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const attempt = { email: normalEmail(request.body.email), address: request.ip, device: deviceCookie(request), at: now() };
      const wait = await beginSignInAttempt(app.db, attempt);
      if (wait > 0) {
        reply.header('Retry-After', String(wait));
        throw throttled(wait);
      }
      const userId = await checkPassword(app.db, attempt.email, request.body.password);
      if (!userId) throw new ApiError('invalid_credentials', 'The e-mail address or the password is not right.');
      await signInSucceeded(app.db, attempt);
      return signIn(request, reply, userId, false);
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
      return reply.code(204).send();
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
      return reply.code(204).send();
    },
  );

  app.put<{ Body: Static<typeof SwitchWorkspace> }>(
    '/web/api/session/workspace',
    {
      config: web('signed-in'),
      schema: { tags, operationId: 'switchWorkspace', summary: 'Switch to another of your workspaces', body: SwitchWorkspace, response: { 200: Session, ...ErrorResponses } },
    },
    async (request) => {
      const session = sessionOf(request);
      const body = await sessionBody(app.db, session);
      if (!body.workspaces.some((w) => w.id === request.body.company_id)) throw new ApiError('not_found', 'The workspace was not found.');
      await switchWorkspace(app.db, session.id, request.body.company_id);
      return sessionBody(app.db, { ...session, company_id: request.body.company_id });
    },
  );

  app.post<{ Body: Static<typeof Token> }>(
    '/web/api/sign-in-links/redeem',
    {
      config: web('public'),
      schema: { tags, operationId: 'redeemSignInLink', summary: 'Sign in with a one-time link', body: Token, response: { 200: Session, ...ErrorResponses } },
    },
    async (request, reply) => {
      const userId = await redeemLink(app.db, request.body.token, 'sign_in', now());
      if (!userId) throw linkInvalid();
      return signIn(request, reply, userId, true);
    },
  );

  app.put<{ Body: Static<typeof NewPassword> }>(
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
      assertAcceptablePassword(request.body.password);
      if (!openedByRecentLink(session, now())) await assertCurrentPassword(app.db, session.user_id, request.body.current_password);
      await setPassword(app.db, session.user_id, request.body.password, session.id);
      // The new password forgot the account's devices; this browser just proved itself.
      await rememberThisDevice(app, request, reply, session.user_id);
      return reply.code(204).send();
    },
  );

  app.post<{ Body: Static<typeof ResetRequest> }>(
    '/web/api/password-resets',
    {
      config: web('public'),
      schema: {
        tags,
        operationId: 'requestPasswordReset',
        summary: 'E-mail a password-reset link',
        description: 'Always 202, whether or not the address belongs to an account, so the answer tells nobody which addresses exist.',
        body: ResetRequest,
        response: { 202: Type.Null(), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await requestPasswordReset(app.db, normalEmail(request.body.email), publicUrlOf(app.config), now());
      return reply.code(202).send();
    },
  );

  app.post<{ Body: Static<typeof Token> }>(
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

  app.post<{ Body: Static<typeof ResetRedeem> }>(
    '/web/api/password-resets/redeem',
    {
      config: web('public'),
      schema: {
        tags,
        operationId: 'redeemPasswordReset',
        summary: 'Choose a new password with a reset link',
        description: 'Ends every other session of the person and signs this browser in.',
        body: ResetRedeem,
        response: { 200: Session, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      assertAcceptablePassword(request.body.password);
      const userId = await redeemLink(app.db, request.body.token, 'password_reset', now());
      if (!userId) throw linkInvalid();
      await setPassword(app.db, userId, request.body.password);
      return signIn(request, reply, userId, true);
    },
  );
}
