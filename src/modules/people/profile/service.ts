import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { tenantSettings, withTenant } from '../../../db/tenant.ts';
import { badRequest, conflict, notFound } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { endSessionOf, listSessions, openedByRecentLink, type SessionRow } from '../../../auth/sessions.ts';
import { translator } from '../../../i18n/index.ts';
import { enqueueMail, type MailMessage } from '../../../outbox/enqueue.ts';
import { consumeLink, issueLink, linkInvalid, LINK_LIFETIME_MS, pendingLink } from '../../../auth/one-time-links.ts';
import { mailWorkspaceOf, validateMemberInput, assertEmailFree, assertValidEmail, isEmailTakenError, emailTaken, isPlaceholderEmail, normalEmail, setEmail, preferencesOf } from '../users/index.ts';
import { assertCurrentPassword, sessionBody, type SessionBody } from '../sessions/index.ts';
import { fullName } from './rules.ts';
import type { EmailChange, Identity, ProfilePatch, ProfileSchema } from './schemas.ts';

/**
 * A person's own profile (the web app's Settings → Profile): their name, their
 * e-mail address (changed only once the new address confirms it), their display
 * preferences, and the first owner's first sign-in, where the first start's
 * placeholder identity becomes a real one. Runs as the service: a person is one
 * identity across their workspaces, read before any workspace is chosen.
 */

export type Profile = Static<typeof ProfileSchema>;

export async function profileOf(db: Kysely<DB>, userId: string, now: Date): Promise<Profile> {
  const [user, pending] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name', 'email', 'password_hash', 'language', 'date_format', 'duration_format', 'theme'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow(),
    pendingLink(db, userId, 'email_change', now),
  ]);
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    pending_email: pending?.new_email ?? null,
    has_password: user.password_hash !== null,
    preferences: preferencesOf(user),
  };
}

/** Changes the person's name and preferences (the identity's: every workspace shows the new name). */
export async function updateProfile(db: Kysely<DB>, userId: string, changes: Static<typeof ProfilePatch>, now: Date): Promise<Profile> {
  if (Object.keys(changes).length === 0) throw badRequest('Name at least one property to change.');
  // The name rules of every member (1 to 255 characters, a first name not blank), in one place.
  validateMemberInput({ first_name: changes.first_name, last_name: changes.last_name });
  const first_name = changes.first_name?.trim();
  const last_name = changes.last_name?.trim();
  await db
    .updateTable('users')
    .set({ ...changes, first_name, last_name, updated_at: now })
    .where('id', '=', userId)
    .execute();
  return profileOf(db, userId, now);
}

/** The workspace whose outbox carries a person's own mail; 409 when they belong to none. */
async function mailWorkspace(db: Kysely<DB>, userId: string, preferred: string | null): Promise<string> {
  const chosen = await mailWorkspaceOf(db, userId, preferred);
  if (!chosen) throw conflict('You belong to no active workspace, so Sheaf has no way to send you e-mail.');
  return chosen;
}

const addressOf = (u: { email: string; first_name: string; last_name: string }) => ({ email: u.email, name: fullName(u) });

/**
 * Sends a confirmation link to the new address, in the person's language; nothing
 * changes until it is opened. A newer request replaces an unconfirmed earlier one (issueLink voids it).
 * The current password is required when the person has one, except in a session opened by a
 * one-time link within the last hour. The session's workspace's outbox sends the confirmation.
 */
export async function requestEmailChange(
  db: Kysely<DB>,
  session: SessionRow,
  change: Static<typeof EmailChange>,
  options: { baseUrl: string; now: Date },
): Promise<Profile> {
  if (!openedByRecentLink(session, options.now)) await assertCurrentPassword(db, session.user_id, change.current_password);
  const input = { userId: session.user_id, companyId: session.company_id, email: normalEmail(change.email), ...options };
  assertValidEmail(input.email);
  const user = await db.selectFrom('users').select(['email', 'first_name', 'last_name', 'language']).where('id', '=', input.userId).executeTakeFirstOrThrow();
  if (user.email === input.email) throw badRequest('This is your e-mail address already.', { field: 'email' });
  if (isPlaceholderEmail(input.email)) throw badRequest('Choose an address that receives e-mail.', { field: 'email' });
  await assertEmailFree(db, input.email, input.userId);
  const companyId = await mailWorkspace(db, input.userId, input.companyId);
  const token = await issueLink(db, input.userId, 'email_change', input.now, input.email);
  const hours = LINK_LIFETIME_MS.email_change / 3_600_000;
  const t = translator(user.language);
  const addresses = { newEmail: input.email, oldEmail: user.email };
  const message: MailMessage = {
    to: [{ email: input.email, name: fullName(user) }],
    subject: t('emailChangeMail.subject'),
    text: [
      t('mail.greeting', { name: user.first_name }),
      '',
      t('emailChangeMail.asked', addresses),
      t('emailChangeMail.openWithin', { count: hours }),
      '',
      `${input.baseUrl}/confirm-email#${token}`,
      '',
      t('emailChangeMail.until', addresses),
    ].join('\n'),
  };
  await withTenant(db, companyId, (trx) => enqueueMail(trx, companyId, 'email_change', message, input.now));
  return profileOf(db, input.userId, input.now);
}

/**
 * Opens an e-mail change link: the address becomes the person's (if still free),
 * and the old address is told (in the person's language), in the same transaction.
 * The link works once.
 */
export async function confirmEmailChange(db: Kysely<DB>, token: string, now: Date): Promise<{ userId: string; email: string }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const link = await consumeLink(trx, token, 'email_change', now);
      if (!link?.new_email) throw linkInvalid();
      const email = link.new_email;
      const user = await trx
        .selectFrom('users')
        .select(['email', 'first_name', 'last_name', 'language'])
        .where('id', '=', link.user_id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (user.email !== email) await setEmail(trx, link.user_id, email, now);
      // A reset link mailed to the old address must not outlive it: whoever reads that inbox now is not the owner.
      await trx.deleteFrom('one_time_links').where('user_id', '=', link.user_id).where('purpose', '=', 'password_reset').execute();
      const companyId = await mailWorkspace(trx, link.user_id, null);
      // The notice goes through the workspace's outbox, which only its tenant role writes.
      await tenantSettings(companyId).execute(trx);
      const t = translator(user.language);
      const addresses = { newEmail: email, oldEmail: user.email };
      await enqueueMail(
        trx,
        companyId,
        'email_changed',
        {
          to: [addressOf(user)],
          subject: t('emailChangeMail.changedSubject'),
          text: [
            t('mail.greeting', { name: user.first_name }),
            '',
            t('emailChangeMail.changed', addresses),
            '',
            t('emailChangeMail.notYou'),
          ].join('\n'),
        },
        now,
      );
      return { userId: link.user_id, email };
    });
  } catch (err) {
    // Two people confirming one address at once: the second meets users_email_key.
    if (isEmailTakenError(err)) throw emailTaken();
    throw err;
  }
}

/**
 * The first owner's real identity, in place of the first start's placeholder.
 * The address is set at once, unconfirmed: whoever holds the first start's
 * sign-in link is the operator, and on a first start e-mail is usually not set
 * up yet, so a confirmation mail would lock them out (docs/decisions.md).
 * Only while the placeholder is still there.
 */
export async function setFirstIdentity(db: Kysely<DB>, session: SessionRow, identity: Static<typeof Identity>, now: Date): Promise<SessionBody> {
  const userId = session.user_id;
  const input = { ...identity, email: normalEmail(identity.email) };
  validateMemberInput({ first_name: input.first_name, last_name: input.last_name });
  if (isPlaceholderEmail(input.email)) throw badRequest('Choose an address that receives e-mail.', { field: 'email' });
  await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('email').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    if (!isPlaceholderEmail(user.email)) {
      throw conflict('Your name and e-mail address are set already: change them on your profile.');
    }
    await setEmail(trx, userId, input.email, now);
    await trx
      .updateTable('users')
      .set({ first_name: input.first_name.trim(), last_name: input.last_name.trim(), updated_at: now })
      .where('id', '=', userId)
      .execute();
  });
  return sessionBody(db, session);
}

/** Where the person is signed in, the current session marked. */
export async function ownSessions(db: Kysely<DB>, session: SessionRow, now: Date) {
  const rows = await listSessions(db, session.user_id, now);
  return rows.map((r) => ({
    id: r.id,
    created_at: r.created_at.toISOString(),
    last_seen_at: r.last_seen_at.toISOString(),
    ip: r.ip,
    user_agent: r.user_agent,
    current: r.id === session.id,
  }));
}

/** Signs out another of the person's sessions: the current one is 400 (sign out instead), anyone else's 404. */
export async function endOwnSession(db: Kysely<DB>, session: SessionRow, id: string) {
  if (id === session.id) throw badRequest('This is the session you are using: sign out instead.', { field: 'session_id' });
  if (!isId(id) || !(await endSessionOf(db, session.user_id, id))) throw notFound('session');
}
