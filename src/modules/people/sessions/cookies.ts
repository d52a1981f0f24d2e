import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';
import { ApiError } from '../../../errors.ts';
import { createSession, SESSION_COOKIE, SESSION_LIFETIME_MS } from '../../../auth/sessions.ts';
import { DEVICE_COOKIE, DEVICE_LIFETIME_MS, rememberDevice } from '../../../auth/sign-in-throttle.ts';
import { issueChallenge, secondFactorsOf } from '../../../auth/two-factor.ts';
import { auditSignIn } from '../../workspace/audit/index.ts';
import { sessionBody, type SessionBody } from './service.ts';

/** A right password (link, reset, invitation) of an account with a second factor: the code is asked next. */
export interface SecondFactorChallenge {
  second_factor_required: true;
  challenge: string;
  expires_at: string;
  methods: Array<'totp' | 'passkey'>;
}

/**
 * The web app's cookies: the session's and the remembered device's, and opening a session
 * (every way of signing in ends in openSession). HTTP only; the rules are in service.ts.
 */

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
export const clearSessionCookie = (request: FastifyRequest, reply: FastifyReply) => writeSessionCookie(request, reply, '', 0);

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
export async function rememberThisDevice(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, userId: string) {
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
 * invitation). `companyId`: the workspace to open in (default: their first). `method` names the
 * way in the audit log (default: link or password, by `viaLink`); the sign-in is recorded
 * there with the address and browser, in every workspace of the person (one insert).
 *
 * A person with two-factor codes gets no session here: the answer is 202 with a
 * challenge (5 minutes, used once), and POST /web/api/session/two-factor opens the
 * session with the code (`secondFactorDone`), whichever way they came in.
 */
export async function openSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { userId: string; viaLink: boolean; companyId?: string; method?: string; secondFactorDone?: boolean },
): Promise<SessionBody | SecondFactorChallenge> {
  const method = input.method ?? (input.viaLink ? 'link' : 'password');
  const methods = input.secondFactorDone ? [] : await secondFactorsOf(app.db, input.userId);
  if (methods.length > 0) {
    const { token, expiresAt } = await issueChallenge(app.db, { userId: input.userId, method, companyId: input.companyId, viaLink: input.viaLink }, app.config.clock());
    reply.code(202);
    return { second_factor_required: true, challenge: token, expires_at: expiresAt.toISOString(), methods };
  }
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
  await auditSignIn(app.db, input.userId, {
    address: request.ip,
    userAgent: request.headers['user-agent'],
    method,
  });
  return sessionBody(app.db, session);
}

/** `work`, with a throttled sign-in's wait in the Retry-After header of the 429. */
export async function withRetryAfter<T>(reply: FastifyReply, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'rate_limited') reply.header('Retry-After', String(err.extras.retry_after));
    throw err;
  }
}
