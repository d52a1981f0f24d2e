import type { Static } from '@sinclair/typebox';
import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import type { Principal } from '../../../auth/principal.ts';
import { assertMayAdministerRole } from '../../../access/policy.ts';
import { auditActor } from '../../../access/operator.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { badRequest, conflict, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { DEFAULT_LANGUAGE, translator } from '../../../i18n/index.ts';
import { enqueueMail } from '../../../outbox/enqueue.ts';
import { endSession, findSession, hashToken, newToken } from '../../../auth/sessions.ts';
import { linkInvalid } from '../../../auth/one-time-links.ts';
import { assertAcceptablePassword, hashPassword, verifyPassword } from '../../../auth/passwords.ts';
import { beginSignInAttempt, signInSucceeded, throttled } from '../../../auth/sign-in-throttle.ts';
import { audit } from '../../workspace/audit/index.ts';
import { assertPermissionsFitRole, validateMemberInput } from '../users/index.ts';
import type { Acceptance as AcceptanceBody, Invitation as InvitationSchema, NewInvitation, Preview } from './schemas.ts';

/**
 * Invitations (issue 15): an owner or administrator invites an e-mail address
 * with a role; the person gets a one-time link; accepting it creates the account
 * (or uses the existing one, after its password) and the membership. Tokens are
 * 256 random bits stored as their SHA-256, single-use, and expire after
 * INVITATION_LIFETIME_MS; a resend replaces the token (the older link stops).
 */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export type Invitation = Static<typeof InvitationSchema>;

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

export function statusOf(row: { accepted_at: Date | null; revoked_at: Date | null; expires_at: Date }, now: Date): InvitationStatus {
  if (row.accepted_at) return 'accepted';
  if (row.revoked_at) return 'revoked';
  return row.expires_at <= now ? 'expired' : 'pending';
}

function invitationQuery(trx: Tx, companyId: string) {
  return trx
    .selectFrom('invitations as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select([
      'i.id',
      'i.email',
      'i.role',
      'i.permissions',
      'i.is_contractor',
      'i.invited_by',
      'u.first_name',
      'u.last_name',
      'i.created_at',
      'i.expires_at',
      'i.accepted_at',
      'i.revoked_at',
    ])
    .where('i.company_id', '=', companyId);
}

type Row = Awaited<ReturnType<ReturnType<typeof invitationQuery>['executeTakeFirstOrThrow']>>;

function present(r: Row, now: Date): Invitation {
  return {
    id: r.id,
    email: r.email,
    role: r.role,
    permissions: [...r.permissions],
    is_contractor: r.is_contractor,
    invited_by: r.invited_by ? { id: r.invited_by, name: fullName(r.first_name, r.last_name) } : null,
    created_at: r.created_at.toISOString(),
    expires_at: r.expires_at.toISOString(),
    status: statusOf(r, now),
  };
}

export function listInvitations(db: Kysely<DB>, p: Principal, now: Date): Promise<Invitation[]> {
  return withTenant(db, p.companyId, async (trx) => {
    const rows = await invitationQuery(trx, p.companyId).orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').execute();
    return rows.map((r) => present(r, now));
  });
}

/**
 * The language of an invitation mail (docs/decisions.md, "Languages"): the
 * invitee's own when the address has an account already (a person of another
 * workspace: never a member of this one, which cannot be invited), else the
 * inviter's. One query as the service, before the workspace's transaction (an
 * account of another workspace is not visible in it). `invitee` is the address,
 * or the invitation holding it (a resend).
 */
async function invitationLanguage(db: Kysely<DB>, p: Principal, invitee: string | { invitationId: string }): Promise<string> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'language'])
    .where((eb) =>
      eb.or([
        eb('id', '=', p.userId),
        typeof invitee === 'string'
          ? eb('email', '=', invitee)
          : eb('email', '=', eb.selectFrom('invitations').select('email').where('company_id', '=', p.companyId).where('id', '=', invitee.invitationId)),
      ]),
    )
    .execute();
  return (rows.find((r) => r.id !== p.userId) ?? rows.find((r) => r.id === p.userId))?.language ?? DEFAULT_LANGUAGE;
}

async function sendInvitationMail(trx: Tx, p: Principal, email: string, token: string, language: string, baseUrl: string, now: Date) {
  const inviter = fullName(p.firstName, p.lastName) || p.email;
  const t = translator(language);
  // The workspace's name as stored, not the principal's: the operator's (an import run from the CLI) has none.
  const workspace = await trx.selectFrom('companies').select('name').where('id', '=', p.companyId).executeTakeFirstOrThrow();
  const names = { inviter, workspace: workspace.name };
  await enqueueMail(
    trx,
    p.companyId,
    'invitation',
    {
      to: [{ email }],
      // The operator (an import run from the CLI) is nobody with an address: no reply-to then.
      ...(p.email ? { reply_to: { email: p.email, name: inviter } } : {}),
      subject: t('invitationMail.subject', names),
      text: [
        t('mail.greetingNoName'),
        '',
        t('invitationMail.invited', names),
        t('invitationMail.openWithin', { count: INVITATION_LIFETIME_MS / 86_400_000 }),
        '',
        `${baseUrl}/invitations/accept#${token}`,
        '',
        t('invitationMail.ignore'),
      ].join('\n'),
    },
    now,
  );
}

/** POST /web/api/invitations: records the invitation and e-mails its link, in one transaction. */
export async function createInvitation(db: Kysely<DB>, p: Principal, input: Static<typeof NewInvitation>, baseUrl: string, now: Date): Promise<Invitation> {
  const email = input.email.trim().toLowerCase();
  validateMemberInput({ email, role: input.role, permissions: input.permissions });
  assertMayAdministerRole(p, input.role);
  assertPermissionsFitRole(input.role, input.permissions);
  const token = newToken();
  const language = await invitationLanguage(db, p, email);
  return withTenant(db, p.companyId, async (trx) => {
    // One invitation at a time per address: two administrators inviting the same
    // person at once queue here, and the second sees the first one's invitation.
    await trx.selectFrom('companies').select('id').where('id', '=', p.companyId).forUpdate().execute();
    const member = await trx
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.is_active'])
      .where('m.company_id', '=', p.companyId)
      .where('u.email', '=', email)
      .executeTakeFirst();
    if (member) {
      throw conflict(
        member.is_active ? `${email} is already a member of this workspace.` : `${email} is a deactivated member of this workspace: reactivate them instead.`,
        { field: 'email', refusal: 'already_member' },
      );
    }
    const pending = await trx
      .selectFrom('invitations')
      .select('id')
      .where('company_id', '=', p.companyId)
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (pending) throw conflict(`${email} has a pending invitation already: resend it instead.`, { field: 'email', invitation_id: pending.id, refusal: 'invitation_pending' });
    const id = await sendInvitation(trx, p, { email, role: input.role, permissions: input.permissions ?? [], is_contractor: input.is_contractor ?? false }, { token, language, baseUrl, now });
    return present(await invitationQuery(trx, p.companyId).where('i.id', '=', id).executeTakeFirstOrThrow(), now);
  });
}

/**
 * An invitation for a person an import (integrations/import) made a member of, in the
 * import's transaction: the link lets them choose a password and sign in. Their
 * membership exists already, which acceptance allows for an account without a password
 * (see accept). Returns the invitation's id.
 */
export async function inviteImportedMember(trx: Tx, p: Principal, email: string, baseUrl: string, now: Date): Promise<string> {
  const language = await invitationLanguage(trx, p, email);
  return sendInvitation(trx, p, { email, role: 'member', permissions: [], is_contractor: false }, { token: newToken(), language, baseUrl, now }, { by: 'import' });
}

/** Stores an invitation (its token hashed), e-mails its link through the outbox and audits it; returns its id. */
async function sendInvitation(
  trx: Tx,
  p: Principal,
  invite: Pick<Insertable<DB['invitations']>, 'email' | 'role' | 'permissions' | 'is_contractor'>,
  mail: { token: string; language: Awaited<ReturnType<typeof invitationLanguage>>; baseUrl: string; now: Date },
  auditDetails: Record<string, string> = {},
): Promise<string> {
  const { token, now } = mail;
  const id = newId(now.getTime());
  await trx
    .insertInto('invitations')
    .values({
      company_id: p.companyId,
      id,
      token_hash: hashToken(token),
      ...invite,
      invited_by: p.kind === 'operator' ? null : p.userId,
      created_at: now,
      expires_at: new Date(now.getTime() + INVITATION_LIFETIME_MS),
    })
    .execute();
  await sendInvitationMail(trx, p, invite.email, token, mail.language, mail.baseUrl, now);
  await audit(trx, { ...auditActor(p), action: 'invitation.created', subjectType: 'invitation', subjectId: id, details: { email: invite.email, role: invite.role, ...auditDetails } });
  return id;
}

async function lockInvitation(trx: Tx, companyId: string, id: string) {
  const row = await trx
    .selectFrom('invitations')
    .select(['id', 'email', 'role', 'accepted_at', 'revoked_at', 'expires_at'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('invitation');
  return row;
}

/** POST /web/api/invitations/:id/resend: a new token and expiry, e-mailed again; the previous link stops working. */
export async function resendInvitation(db: Kysely<DB>, p: Principal, id: string, baseUrl: string, now: Date): Promise<Invitation> {
  if (!isId(id)) throw notFound('invitation');
  const token = newToken();
  const language = await invitationLanguage(db, p, { invitationId: id });
  return withTenant(db, p.companyId, async (trx) => {
    const row = await lockInvitation(trx, p.companyId, id);
    if (row.accepted_at) throw conflict('This invitation was accepted already.');
    if (row.revoked_at) throw conflict('This invitation was revoked: invite the person again.');
    await trx
      .updateTable('invitations')
      .set({ token_hash: hashToken(token), expires_at: new Date(now.getTime() + INVITATION_LIFETIME_MS) })
      .where('company_id', '=', p.companyId)
      .where('id', '=', id)
      .execute();
    await sendInvitationMail(trx, p, row.email, token, language, baseUrl, now);
    await audit(trx, { ...auditActor(p), action: 'invitation.resent', subjectType: 'invitation', subjectId: id });
    return present(await invitationQuery(trx, p.companyId).where('i.id', '=', id).executeTakeFirstOrThrow(), now);
  });
}

/** DELETE /web/api/invitations/:id: the link stops working. Revoking a revoked invitation changes nothing. */
export async function revokeInvitation(db: Kysely<DB>, p: Principal, id: string, now: Date): Promise<void> {
  if (!isId(id)) throw notFound('invitation');
  await withTenant(db, p.companyId, async (trx) => {
    const row = await lockInvitation(trx, p.companyId, id);
    if (row.accepted_at) throw conflict('This invitation was accepted already: deactivate the member instead.');
    if (row.revoked_at) return;
    await trx.updateTable('invitations').set({ revoked_at: now }).where('company_id', '=', p.companyId).where('id', '=', id).execute();
    await audit(trx, { ...auditActor(p), action: 'invitation.revoked', subjectType: 'invitation', subjectId: id });
  });
}

// ---- accepting (public: the link is the credential) ----

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The pending invitation a link names, read as the service (the workspace is not
 * known before), with what the acceptance page shows; null when the link is
 * unknown, used, revoked, replaced or expired.
 */
async function pendingInvitation(db: Kysely<DB>, token: unknown, now: Date) {
  if (typeof token !== 'string' || !TOKEN.test(token)) return null;
  const row = await db
    .selectFrom('invitations as i')
    .innerJoin('companies as c', 'c.id', 'i.company_id')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.company_id', 'i.id', 'i.email', 'i.role', 'i.invited_by', 'u.first_name', 'u.last_name', 'c.name as workspace_name'])
    .where('i.token_hash', '=', hashToken(token))
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('i.expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

/** The account the invited address already has, if any. */
function accountOf(db: Kysely<DB>, email: string) {
  return db.selectFrom('users').select(['id', 'user_type', 'password_hash']).where('email', '=', email).executeTakeFirst();
}

export type InvitationPreview = Static<typeof Preview>;

export async function lookUpInvitation(db: Kysely<DB>, token: unknown, now: Date): Promise<InvitationPreview> {
  const inv = await pendingInvitation(db, token, now);
  if (!inv) throw linkInvalid();
  const account = await accountOf(db, inv.email);
  return {
    workspace_name: inv.workspace_name,
    email: inv.email,
    role: inv.role,
    invited_by: inv.invited_by ? { id: inv.invited_by, name: fullName(inv.first_name, inv.last_name) } : null,
    account_exists: Boolean(account && account.user_type === 'human' && account.password_hash !== null),
  };
}

export type Acceptance = Static<typeof AcceptanceBody> & {
  /** The browser session's token the request carries, if any. */
  sessionToken?: string;
  /** The client address, for the sign-in throttle. */
  address: string;
  /** The browser's `sheaf_device` cookie, if any, for the sign-in throttle. */
  device?: string;
};

/**
 * Accepts an invitation; returns the member's user id and the workspace. The
 * token is claimed by one UPDATE ... RETURNING, so of two acceptances at once one
 * wins and the other gets link_invalid; everything else happens in the same
 * transaction, so a refusal after the claim (a conflict) leaves the link usable.
 *
 * - An account with a password: the password is required (or a session of that
 *   account), checked under the sign-in throttle, as a sign-in would be.
 * - No account: first_name and a password make one.
 * - An account without a password (made by the operator, never signed in): it
 *   gets the password chosen here; the link, sent to its address, proves the
 *   address as a password-reset link would.
 */
export async function acceptInvitation(db: Kysely<DB>, input: Acceptance, now: Date): Promise<{ userId: string; companyId: string }> {
  const current = input.sessionToken ? await findSession(db, input.sessionToken, now) : null;
  const accepted = await accept(db, { ...input, signedInUserId: current?.user_id }, now);
  // The new session's cookie replaces this browser's current one, so that session would only linger.
  if (current) await endSession(db, current.id);
  return accepted;
}

async function accept(
  db: Kysely<DB>,
  input: Acceptance & { signedInUserId: string | undefined },
  now: Date,
): Promise<{ userId: string; companyId: string }> {
  const inv = await pendingInvitation(db, input.token, now);
  if (!inv) throw linkInvalid();
  const account = await accountOf(db, inv.email);
  if (account && account.user_type !== 'human') throw conflict('This address belongs to an agent identity, which cannot sign in.');

  let passwordHash: string | null = null;
  let names: { first_name: string; last_name: string } | null = null;
  if (account?.password_hash) {
    if (input.signedInUserId !== account.id) await assertAccountPassword(db, inv.email, account.password_hash, input, now);
  } else {
    const first = input.first_name?.trim() ?? '';
    const last = input.last_name?.trim() ?? '';
    if (!account && !first) throw badRequest('Enter your first name.', { field: 'first_name' });
    if (first) validateMemberInput({ first_name: first, last_name: last });
    assertAcceptablePassword(input.password);
    passwordHash = await hashPassword(input.password);
    if (first) names = { first_name: first, last_name: last };
  }

  // An account that signs in for the first time here takes the page's language (an account with a password keeps its own).
  const pageLanguage = input.language ? { language: input.language } : {};
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('invitations')
      .set({ accepted_at: now })
      .where('token_hash', '=', hashToken(input.token))
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['company_id', 'id', 'role', 'permissions', 'is_contractor'])
      .executeTakeFirst();
    if (!claimed) throw linkInvalid();
    let userId = account?.id;
    if (!userId) {
      const created = await trx
        .insertInto('users')
        .values({ id: newId(now.getTime()), email: inv.email, first_name: names!.first_name, last_name: names!.last_name, user_type: 'human', password_hash: passwordHash, ...pageLanguage })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!created) throw conflict('An account with this address was created meanwhile: open the link again and sign in with its password.');
      userId = created.id;
    } else if (passwordHash) {
      const set = await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, ...(names ?? {}), ...pageLanguage, updated_at: now })
        .where('id', '=', userId)
        .where('password_hash', 'is', null)
        .executeTakeFirst();
      if (Number(set.numUpdatedRows) === 0) throw conflict('This account got a password meanwhile: open the link again and sign in with it.');
    }
    const membership = await trx
      .insertInto('memberships')
      .values({ company_id: claimed.company_id, user_id: userId, role: claimed.role, permissions: claimed.permissions, is_contractor: claimed.is_contractor })
      .onConflict((oc) => oc.doNothing())
      .returning('user_id')
      .executeTakeFirst();
    // A membership made before the invitation (by an import) is this invitation's own when the
    // account had no password: the link proved the address, as it does for that password.
    if (!membership && !passwordHash) throw conflict('You are a member of this workspace already.');
    await trx.updateTable('invitations').set({ accepted_user_id: userId }).where('company_id', '=', claimed.company_id).where('id', '=', claimed.id).execute();
    await audit(trx, {
      companyId: claimed.company_id,
      action: 'invitation.accepted',
      subjectType: 'invitation',
      subjectId: claimed.id,
      actorUserId: userId,
      details: { user_id: userId, role: claimed.role },
    });
    return { userId, companyId: claimed.company_id };
  });
}

/** An existing account's password, checked as a sign-in is, under the sign-in throttle. */
async function assertAccountPassword(db: Kysely<DB>, email: string, hash: string, input: Acceptance, now: Date) {
  if (typeof input.password !== 'string' || input.password === '') {
    throw badRequest('You have an account already: enter its password to accept.', { field: 'password' });
  }
  const attempt = { email, address: input.address, device: input.device, at: now };
  const wait = await beginSignInAttempt(db, attempt);
  if (wait > 0) throw throttled(wait);
  if (!(await verifyPassword(input.password, hash))) throw badRequest('The password is not right.', { field: 'password' });
  await signInSucceeded(db, attempt);
}
