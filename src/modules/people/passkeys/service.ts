import { isIP } from 'node:net';
import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { publicUrlOf, type Config } from '../../../config.ts';
import type { DB } from '../../../db/types.ts';
import { ApiError, badRequest, conflict, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import type { SessionRow } from '../../../auth/sessions.ts';
import { beginSignInAttempt, signInSucceeded, throttled } from '../../../auth/sign-in-throttle.ts';
import { consumeChallenge, findChallenge, type PendingSignIn } from '../../../auth/two-factor.ts';
import { auditAccountEvent, auditFailedSignIn } from '../../workspace/audit/index.ts';
import { sendSecurityNotice } from '../users/index.ts';
import type { AddPasskey, Passkey, PasskeySignIn } from './schemas.ts';

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): a person registers several, names and
 * removes them, and signs in with one alone (a discoverable credential: the passkey names the
 * person, and user verification, the device's PIN or biometrics, is the second factor) or as the
 * second step after a password. docs/decisions.md, "Passkeys (issue 28 item 3)".
 */

const CEREMONY_MS = 5 * 60 * 1000;
const DEFAULT_NAME = 'Passkey';

/** Who the passkeys belong to (the relying party): the origin the browser is on and its host name. */
export interface RelyingParty {
  origin: string;
  rpID: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/**
 * The relying party of a request: the server's public address (PUBLIC_URL, else the address it
 * listens on). A server on a loopback address also answers as `localhost` on the same port,
 * because browsers refuse passkeys for an IP address; the browser's Origin header picks which.
 * Passkeys on a server reached only by an IP address are refused with a 409 that says why.
 */
export function relyingPartyOf(config: Pick<Config, 'publicUrl' | 'host' | 'port'>, originHeader: string | undefined): RelyingParty {
  const base = new URL(publicUrlOf(config));
  const allowed = [base.origin];
  if (LOOPBACK.has(base.hostname)) allowed.push(`${base.protocol}//localhost${base.port ? `:${base.port}` : ''}`);
  const origin = originHeader && allowed.includes(originHeader) ? originHeader : base.origin;
  const rpID = new URL(origin).hostname;
  if (isIP(rpID.replace(/^\[|\]$/g, '')) !== 0) {
    throw conflict(
      `Passkeys need Sheaf to be reached by a name, not an IP address: open ${allowed.find((o) => o.includes('localhost')) ?? 'it by its host name (PUBLIC_URL)'} instead.`,
    );
  }
  return { origin, rpID };
}

const present = (row: { id: string; name: string; created_at: Date; last_used_at: Date | null; backed_up: boolean }): Static<typeof Passkey> => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  synced: row.backed_up,
});

export async function listPasskeys(db: Kysely<DB>, userId: string) {
  const rows = await db
    .selectFrom('user_passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at', 'backed_up'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return { passkeys: rows.map(present) };
}

async function issueCeremony(db: Kysely<DB>, challenge: string, purpose: 'register' | 'sign_in', userId: string | null, now: Date) {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<', now).execute();
  await db
    .insertInto('webauthn_challenges')
    .values({ challenge, purpose, user_id: userId, created_at: now, expires_at: new Date(now.getTime() + CEREMONY_MS) })
    .execute();
}

/** The challenge the browser signed, from the clientDataJSON it sent; null when unreadable. */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length <= 100 ? data.challenge : null;
  } catch {
    return null;
  }
}

/** Uses a ceremony's challenge once (one UPDATE: two answers to one challenge cannot both pass). */
async function consumeCeremony(db: Kysely<DB>, clientDataJSON: string, purpose: 'register' | 'sign_in', now: Date) {
  const challenge = signedChallenge(clientDataJSON);
  if (!challenge) return null;
  return db
    .updateTable('webauthn_challenges')
    .set({ used_at: now })
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['challenge', 'user_id'])
    .executeTakeFirst();
}

/** Options for registering a new passkey of the signed-in person (their existing ones excluded). */
export async function registrationOptions(db: Kysely<DB>, rp: RelyingParty, session: SessionRow, now: Date) {
  const user = await db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', session.user_id).executeTakeFirstOrThrow();
  const existing = await db.selectFrom('user_passkeys').select(['credential_id', 'transports']).where('user_id', '=', session.user_id).execute();
  const options = await generateRegistrationOptions({
    rpName: 'Sheaf',
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email,
    // The person's id, so an authenticator keeps one passkey per person and site (a new one replaces it there).
    userID: Buffer.from(session.user_id.replace(/-/g, ''), 'hex'),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: c.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    timeout: CEREMONY_MS,
  });
  await issueCeremony(db, options.challenge, 'register', session.user_id, now);
  return { options };
}

const refusedRegistration = () => badRequest('The browser’s answer does not fit the passkey Sheaf asked for: add it again.', { field: 'credential' });

/** Verifies the browser's new passkey and keeps it; recorded in the person's logs and e-mailed to them. */
export async function addPasskey(db: Kysely<DB>, rp: RelyingParty, session: SessionRow, input: Static<typeof AddPasskey>, now: Date) {
  const ceremony = await consumeCeremony(db, input.credential.response.clientDataJSON, 'register', now);
  if (!ceremony || ceremony.user_id !== session.user_id) throw refusedRegistration();
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.credential as unknown as RegistrationResponseJSON,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
  } catch {
    throw refusedRegistration();
  }
  if (!verified.verified) throw refusedRegistration();
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  const name = input.name?.trim() || DEFAULT_NAME;
  const row = await db
    .insertInto('user_passkeys')
    .values({
      id: newId(now.getTime()),
      user_id: session.user_id,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey),
      counter: String(credential.counter),
      transports: credential.transports ?? [],
      device_type: credentialDeviceType,
      backed_up: credentialBackedUp,
      name,
      created_at: now,
    })
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .returning(['id', 'name', 'created_at', 'last_used_at', 'backed_up'])
    .executeTakeFirst();
  if (!row) throw conflict('This passkey is added already.', { field: 'credential' });
  await auditAccountEvent(db, session.user_id, 'passkey.added', { name });
  await sendSecurityNotice(db, session.user_id, 'passkey_added', { companyId: session.company_id, now });
  return present(row);
}

async function ownPasskey(db: Kysely<DB>, userId: string, id: string) {
  if (!isId(id)) throw notFound('passkey');
  const row = await db.selectFrom('user_passkeys').select(['id', 'name']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound('passkey');
  return row;
}

export async function renamePasskey(db: Kysely<DB>, session: SessionRow, id: string, name: string) {
  await ownPasskey(db, session.user_id, id);
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('Give the passkey a name.', { field: 'name' });
  const row = await db
    .updateTable('user_passkeys')
    .set({ name: trimmed })
    .where('id', '=', id)
    .where('user_id', '=', session.user_id)
    .returning(['id', 'name', 'created_at', 'last_used_at', 'backed_up'])
    .executeTakeFirstOrThrow();
  return present(row);
}

/** Removes one of the person's passkeys (it signs in no more); recorded and e-mailed. */
export async function removePasskey(db: Kysely<DB>, session: SessionRow, id: string, now: Date) {
  const row = await ownPasskey(db, session.user_id, id);
  await db.deleteFrom('user_passkeys').where('id', '=', id).where('user_id', '=', session.user_id).execute();
  await auditAccountEvent(db, session.user_id, 'passkey.removed', { name: row.name });
  await sendSecurityNotice(db, session.user_id, 'passkey_removed', { companyId: session.company_id, now });
}

const expiredSignIn = () => new ApiError('unauthorized', 'This sign-in has expired or was completed already: sign in again.');
const refusedPasskey = () => new ApiError('passkey_refused', 'Sheaf does not know this passkey, or it did not sign what was asked: try again, or sign in another way.');

/**
 * Options for signing in with a passkey. Alone (no challenge): any of the site's passkeys, and the
 * device must verify its user (PIN, biometrics), which makes the passkey two factors in one. As a
 * sign-in's second step (the 202's challenge): only that person's passkeys, user presence enough.
 */
export async function signInOptions(db: Kysely<DB>, rp: RelyingParty, twoFactorChallenge: string | undefined, now: Date) {
  let pending: PendingSignIn | null = null;
  if (twoFactorChallenge !== undefined) {
    pending = await findChallenge(db, twoFactorChallenge, now);
    if (!pending) throw expiredSignIn();
  }
  const theirs = pending
    ? await db.selectFrom('user_passkeys').select(['credential_id', 'transports']).where('user_id', '=', pending.userId).execute()
    : [];
  if (pending && theirs.length === 0) throw conflict('You have no passkey: enter a code from your authenticator app instead.');
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: theirs.map((c) => ({ id: c.credential_id, transports: c.transports as AuthenticatorTransport[] })),
    userVerification: pending ? 'preferred' : 'required',
    timeout: CEREMONY_MS,
  });
  await issueCeremony(db, options.challenge, 'sign_in', pending?.userId ?? null, now);
  return { options };
}

/**
 * Checks a passkey's signature and returns the sign-in it opens: the passkey's person (alone), or
 * the pending sign-in whose second step it is (the passkey must be that person's). Counted in the
 * sign-in throttle like a password once the person is known; a refused passkey is 401
 * `passkey_refused` and is recorded as a failed sign-in. The ceremony's challenge, and a second
 * step's challenge, are used once.
 */
export async function passkeySignIn(
  db: Kysely<DB>,
  rp: RelyingParty,
  input: Static<typeof PasskeySignIn> & { address: string; device: string | undefined; userAgent?: string; now: Date },
): Promise<PendingSignIn> {
  const ceremony = await consumeCeremony(db, input.credential.response.clientDataJSON, 'sign_in', input.now);
  if (!ceremony) throw refusedPasskey();
  const pending = input.challenge !== undefined ? await findChallenge(db, input.challenge, input.now) : null;
  if (input.challenge !== undefined && (!pending || pending.userId !== ceremony.user_id)) throw expiredSignIn();
  if (input.challenge === undefined && ceremony.user_id !== null) throw refusedPasskey();

  const passkey = await db
    .selectFrom('user_passkeys as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.user_id', 'p.credential_id', 'p.public_key', 'p.counter', 'p.transports', 'u.email', 'u.user_type'])
    .where('p.credential_id', '=', input.credential.id)
    .executeTakeFirst();
  if (!passkey || passkey.user_type !== 'human' || (pending && passkey.user_id !== pending.userId)) throw refusedPasskey();

  const attempt = { email: passkey.email, address: input.address, device: input.device, at: input.now };
  const wait = await beginSignInAttempt(db, attempt);
  if (wait > 0) throw throttled(wait);
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response: input.credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: Number(passkey.counter),
        transports: passkey.transports as AuthenticatorTransport[],
      },
      requireUserVerification: !pending,
    });
  } catch {
    verified = null;
  }
  if (!verified?.verified) {
    await auditFailedSignIn(db, passkey.email, { address: input.address, userAgent: input.userAgent, method: 'passkey', reason: 'passkey_refused' });
    throw refusedPasskey();
  }
  await signInSucceeded(db, attempt);
  await db
    .updateTable('user_passkeys')
    .set({ counter: String(verified.authenticationInfo.newCounter), last_used_at: input.now })
    .where('id', '=', passkey.id)
    .execute();
  if (pending) {
    if (!(await consumeChallenge(db, input.challenge!, input.now))) throw expiredSignIn();
    return pending;
  }
  return { userId: passkey.user_id, method: 'passkey', viaLink: false };
}
