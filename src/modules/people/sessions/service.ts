import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB, Language } from '../../../db/types.ts';
import { withTenant } from '../../../db/tenant.ts';
import { translator } from '../../../i18n/index.ts';
import { enqueueMail } from '../../../outbox/enqueue.ts';
import { assertAcceptablePassword, hashPassword, verifyPassword } from '../../../auth/passwords.ts';
import { endAllSessions, openedByRecentLink, switchWorkspace, type SessionRow } from '../../../auth/sessions.ts';
import { issueLink, issueLinkUnlessRecent, linkInvalid, redeemLink } from '../../../auth/one-time-links.ts';
import { beginSignInAttempt, forgetDevices, signInSucceeded, throttled } from '../../../auth/sign-in-throttle.ts';
import { ApiError, badRequest } from '../../../errors.ts';
import { assertPasswordSignInAllowed, passwordSignInAllowed } from '../../../auth/password-sign-in.ts';
import { isPlaceholderEmail, mailWorkspaceOf, normalEmail, preferencesOf, sendSecurityNotice } from '../users/index.ts';
import type { SecretKeys } from '../../../auth/secret-box.ts';
import { consumeChallenge, findChallenge, parseSecondFactor, secondFactorsOf, useSecondFactor, type PendingSignIn } from '../../../auth/two-factor.ts';
import { auditAccountEvent, auditFailedSignIn } from '../../workspace/audit/index.ts';
import type { NewPassword, ResetRedeem, Session } from './schemas.ts';

/** What the web app knows about its signed-in person: GET /web/api/session. */
export type SessionBody = Static<typeof Session>;

export async function sessionBody(db: Kysely<DB>, session: SessionRow): Promise<SessionBody> {
  const [user, memberships, twoFactor] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'email', 'first_name', 'last_name', 'password_hash', 'language', 'date_format', 'duration_format', 'theme'])
      .where('id', '=', session.user_id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('memberships as m')
      .innerJoin('companies as c', 'c.id', 'm.company_id')
      .select(['c.id', 'c.name', 'c.timezone', 'c.currency', 'c.week_start', 'c.require_two_factor', 'm.role', 'm.permissions', 'm.is_contractor'])
      .where('m.user_id', '=', session.user_id)
      .where('m.is_active', '=', true)
      .orderBy('c.name')
      .orderBy('c.id')
      .execute(),
    secondFactorsOf(db, session.user_id),
  ]);
  const current = memberships.find((m) => m.id === session.company_id);
  const enabled = twoFactor.length > 0;
  return {
    user: {
      id: user.id,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      has_password: user.password_hash !== null,
      needs_identity: isPlaceholderEmail(user.email),
      preferences: preferencesOf(user),
    },
    workspace: current
      ? {
          id: current.id,
          name: current.name,
          role: current.role,
          permissions: [...current.permissions],
          is_contractor: current.is_contractor,
          timezone: current.timezone,
          currency: current.currency,
          week_start: current.week_start,
          require_two_factor: current.require_two_factor,
        }
      : null,
    two_factor: { enabled, enrolment_required: !enabled && current?.require_two_factor === true },
    workspaces: memberships.map((m) => ({ id: m.id, name: m.name, role: m.role })),
    csrf_token: session.csrf_token,
  };
}

/** The human who may sign in with this e-mail address and password, or null. */
export async function checkPassword(db: Kysely<DB>, email: string, password: string): Promise<string | null> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'password_hash', 'user_type'])
    .where('email', '=', email)
    .executeTakeFirst();
  // verifyPassword costs the same whether or not the account exists.
  const ok = await verifyPassword(password, user?.password_hash ?? null);
  return ok && user && user.user_type === 'human' ? user.id : null;
}

/** Sets a new password and ends the person's other sessions (a changed password locks out whoever knew the old one). */
export async function setPassword(db: Kysely<DB>, userId: string, password: string, keepSessionId?: string) {
  const hash = await hashPassword(password);
  await db.updateTable('users').set({ password_hash: hash, updated_at: new Date() }).where('id', '=', userId).execute();
  await endAllSessions(db, userId, keepSessionId);
  await forgetDevices(db, userId);
}

export async function assertCurrentPassword(db: Kysely<DB>, userId: string, current: unknown) {
  const user = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.password_hash === null) return;
  if (typeof current !== 'string' || !(await verifyPassword(current, user.password_hash))) {
    throw badRequest('The current password is not right.', { field: 'current_password' });
  }
}

/** One reset e-mail per person per minute however often it is asked for: the route is public, and each mail lands in someone's inbox. */
export const RESET_MAIL_EVERY_MS = 60_000;

/**
 * E-mails a password-reset link to the person with this address, if there is one
 * who may sign in, and none was sent in the last minute (RESET_MAIL_EVERY_MS; the
 * earlier link still works). The mail goes through the outbox of one of their workspaces
 * (mailWorkspaceOf); someone with no active membership gets none, as there is
 * nothing they could sign in to. In the person's language (read with them).
 */
export async function requestPasswordReset(db: Kysely<DB>, address: string, baseUrl: string, now: Date) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'language'])
    .where('email', '=', normalEmail(address))
    .where('user_type', '=', 'human')
    .executeTakeFirst();
  const companyId = user ? await mailWorkspaceOf(db, user.id, null) : null;
  if (!user || !companyId || !(await passwordSignInAllowed(db, user.id))) return;
  const token = await issueLinkUnlessRecent(db, user.id, 'password_reset', now, RESET_MAIL_EVERY_MS);
  if (token === null) return;
  const t = translator(user.language);
  await withTenant(db, companyId, (trx) =>
    enqueueMail(
      trx,
      companyId,
      'password_reset',
      {
        to: [{ email: user.email, name: [user.first_name, user.last_name].filter(Boolean).join(' ') }],
        subject: t('passwordResetMail.subject'),
        text: [
          t('mail.greeting', { name: user.first_name }),
          '',
          t('passwordResetMail.asked'),
          t('passwordResetMail.openWithin'),
          '',
          `${baseUrl}/reset-password#${token}`,
          '',
          t('passwordResetMail.ignore'),
        ].join('\n'),
      },
      now,
    ),
  );
}

/**
 * POST /web/api/session: the person whose e-mail address and password these are. Failed
 * attempts are throttled (429 naming the wait); a wrong address or password is 401, and a
 * wrong password for a known account goes to its workspaces' audit logs.
 */
export async function passwordSignIn(
  db: Kysely<DB>,
  input: { email: string; password: string; address: string; device: string | undefined; userAgent?: string; now: Date },
): Promise<string> {
  const attempt = { email: normalEmail(input.email), address: input.address, device: input.device, at: input.now };
  const wait = await beginSignInAttempt(db, attempt);
  if (wait > 0) throw throttled(wait);
  const userId = await checkPassword(db, attempt.email, input.password);
  if (!userId) {
    // Recorded in the account's workspaces, if the address names one (an unknown one has none).
    await auditFailedSignIn(db, attempt.email, { address: input.address, userAgent: input.userAgent, method: 'password' });
    throw new ApiError('invalid_credentials', 'The e-mail address or the password is not right.');
  }
  await signInSucceeded(db, attempt);
  return userId;
}

/** PUT /web/api/session/workspace: another of the person's workspaces (404 for any other). */
export async function switchSessionWorkspace(db: Kysely<DB>, session: SessionRow, companyId: string): Promise<SessionBody> {
  const body = await sessionBody(db, session);
  if (!body.workspaces.some((w) => w.id === companyId)) throw new ApiError('not_found', 'The workspace was not found.');
  await switchWorkspace(db, session.id, companyId);
  return sessionBody(db, { ...session, company_id: companyId });
}

/**
 * A one-time sign-in link issued by the server's operator (`sheaf admin user sign-in-link`): the
 * way back in for a person without a password they know and without e-mail to reset it (the
 * first start's link used up before a password was chosen, a server with no SMTP_URL). The link
 * signs them in once, within 24 hours, and the hour after lets them choose a password without the
 * old one; it replaces their earlier unused sign-in link. Recorded in the audit log of each of
 * their workspaces. Agents (who never sign in there) and deactivated members are refused.
 */
export async function issueOperatorSignInLink(db: Kysely<DB>, companyId: string, userId: string, now: Date): Promise<{ token: string; email: string }> {
  const member = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.email', 'u.user_type', 'm.is_active'])
    .where('m.company_id', '=', companyId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  if (!member) throw new ApiError('not_found', 'The user was not found.', { field: 'user' });
  if (member.user_type !== 'human') throw badRequest(`${member.email} is an agent: agents use API keys and never sign in to the web app.`, { field: 'user' });
  if (!member.is_active) throw badRequest(`${member.email} is deactivated here: reactivate them first ("user update --active true").`, { field: 'user' });
  const token = await issueLink(db, userId, 'sign_in', now);
  await auditAccountEvent(db, userId, 'session.link_issued', { by: 'operator' });
  return { token, email: member.email };
}

/** The person a one-time sign-in link signs in (400 link_invalid when it cannot be used). */
export async function redeemSignInLink(db: Kysely<DB>, link: { token: string; language?: Language }, now: Date): Promise<string> {
  const userId = await redeemLink(db, link.token, 'sign_in', now);
  if (!userId) throw linkInvalid();
  // The first start's owner opens this link before choosing a password: they get the page's language.
  if (link.language) await db.updateTable('users').set({ language: link.language }).where('id', '=', userId).where('password_hash', 'is', null).execute();
  return userId;
}

/**
 * PUT /web/api/password: the current password is required when there is one, except in a
 * session opened by a one-time link within the last hour. The person's other sessions end.
 */
export async function changePassword(db: Kysely<DB>, session: SessionRow, input: Static<typeof NewPassword>, now: Date) {
  assertAcceptablePassword(input.password);
  if (!openedByRecentLink(session, now)) await assertCurrentPassword(db, session.user_id, input.current_password);
  await setPassword(db, session.user_id, input.password, session.id);
  await sendSecurityNotice(db, session.user_id, 'password_changed', { companyId: session.company_id, now });
}

/** A new password with a reset link: every session of the person ends; returns the person to sign in. */
export async function resetPassword(db: Kysely<DB>, input: Static<typeof ResetRedeem>, now: Date): Promise<string> {
  assertAcceptablePassword(input.password);
  const userId = await redeemLink(db, input.token, 'password_reset', now);
  if (!userId) throw linkInvalid();
  await assertPasswordSignInAllowed(db, userId);
  await setPassword(db, userId, input.password);
  await sendSecurityNotice(db, userId, 'password_changed', { now });
  return userId;
}

/**
 * POST /web/api/session/two-factor: the second step of a sign-in. The code counts in the
 * sign-in throttle exactly as a password does (a wrong one is a failure of the account,
 * 429 past the limits), is accepted once (a TOTP step no earlier than the last accepted
 * one, or an unused recovery code), and the challenge is used once. Returns the sign-in
 * the challenge stood for, for openSession.
 */
export async function secondFactorSignIn(
  db: Kysely<DB>,
  keys: SecretKeys,
  input: { challenge: string; code: string; address: string; device: string | undefined; userAgent?: string; now: Date },
): Promise<PendingSignIn> {
  const factor = parseSecondFactor(input.code);
  const pending = await findChallenge(db, input.challenge, input.now);
  if (!pending) throw new ApiError('unauthorized', 'This sign-in has expired or was completed already: sign in again.');
  const user = await db.selectFrom('users').select('email').where('id', '=', pending.userId).executeTakeFirstOrThrow();
  const attempt = { email: user.email, address: input.address, device: input.device, at: input.now };
  const wait = await beginSignInAttempt(db, attempt);
  if (wait > 0) throw throttled(wait);
  const used = await useSecondFactor(db, keys, pending.userId, factor, input.now);
  if (!used) {
    await auditFailedSignIn(db, user.email, { address: input.address, userAgent: input.userAgent, method: pending.method, reason: 'wrong_code' });
    throw new ApiError('invalid_code', 'The code is not right, or it was used already: wait for the next one.');
  }
  await signInSucceeded(db, attempt);
  if (!(await consumeChallenge(db, input.challenge, input.now))) {
    throw new ApiError('unauthorized', 'This sign-in has expired or was completed already: sign in again.');
  }
  if (used === 'recovery') await auditAccountEvent(db, pending.userId, 'two_factor.recovery_used', { address: input.address });
  return pending;
}
