import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { badRequest } from '../errors.ts';
import { newId } from '../ids.ts';
import { openSecret, type SecretKeys } from './secret-box.ts';
import { hashToken, newToken } from './sessions.ts';

/**
 * Two-factor codes (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps, as every
 * authenticator app reads them) and one-time recovery codes. A code is accepted for
 * its own step and one step either side (clocks drift), and only for a step later
 * than the last one accepted, so a code seen over someone's shoulder is refused once
 * used (docs/decisions.md, "Two-factor codes"). Account-level, as sessions are.
 */
export const TOTP_PERIOD_S = 30;
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** A sign-in waiting for its second factor lasts this long. */
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;
const ISSUER = 'Sheaf';

export const newTotpSecret = () => new Secret({ size: 20 }).base32;

const totpOf = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });

/** The otpauth:// URI an authenticator app reads from the QR code. */
export const otpauthUri = (secret: string, accountName: string) => totpOf(secret, accountName).toString();

/** The time step of an instant. */
export const stepAt = (now: Date) => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S);

/** The code for a step (tests and the CLI compute codes with it). */
export const codeAt = (secret: string, now: Date) => totpOf(secret).generate({ timestamp: now.getTime() });

/** The step a code belongs to within the window around `now`, or null when it matches none. */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : stepAt(now) + delta;
}

/** What a person typed as a second factor: a 6-digit code or a recovery code (dashes and spaces are ignored). */
export type SecondFactor = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string };

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * Reads a code, or 400 naming the field: six digits, or a recovery code (ten letters and
 * digits, shown as xxxxx-xxxxx). Anything else (seven digits, punctuation) is not a code.
 */
export function parseSecondFactor(value: string, field = 'code'): SecondFactor {
  const compact = value.replace(/[\s-]/g, '').toLowerCase();
  if (/^\d{6}$/.test(compact)) return { kind: 'totp', code: compact };
  if (compact.length === 10 && [...compact].every((c) => RECOVERY_ALPHABET.includes(c))) return { kind: 'recovery', code: compact };
  throw badRequest('The code is the 6 digits your authenticator app shows, or one of your recovery codes.', { field });
}

/** Ten new recovery codes (50 bits each), as shown to the person: xxxxx-xxxxx. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

const hashRecoveryCode = (code: string) => hashToken(code.replace(/[\s-]/g, '').toLowerCase());

/** Replaces the person's recovery codes with new ones; returns them (the only time they are seen). */
export async function replaceRecoveryCodes(db: Kysely<DB>, userId: string, now: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(codes.map((c) => ({ id: newId(now.getTime()), user_id: userId, code_hash: hashRecoveryCode(c), created_at: now })))
    .execute();
  return codes;
}

/** The person's confirmed second factor, if any (its secret sealed: secret-box.ts). */
export function enabledSecondFactor(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('user_two_factor')
    .select(['secret', 'enabled_at', 'last_step'])
    .where('user_id', '=', userId)
    .where('enabled_at', 'is not', null)
    .executeTakeFirst();
}

/** Which second factors a person has: confirmed TOTP codes, and passkeys (either serves as the second step of a sign-in). */
export async function secondFactorsOf(db: Kysely<DB>, userId: string): Promise<Array<'totp' | 'passkey'>> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('user_two_factor').select('user_id').where('user_id', '=', userId).where('enabled_at', 'is not', null)).as('totp'),
      eb.exists(eb.selectFrom('user_passkeys').select('id').where('user_id', '=', userId)).as('passkey'),
    ])
    .executeTakeFirstOrThrow();
  return [...(row.totp ? (['totp'] as const) : []), ...(row.passkey ? (['passkey'] as const) : [])];
}

/**
 * Checks a second factor of a person with TOTP enabled and, when right, uses it up: the
 * TOTP step becomes the last accepted one (one UPDATE that only moves forward, so two
 * requests with one code cannot both pass), or the recovery code is marked used (one
 * UPDATE … WHERE used_at IS NULL). Returns what was used, or null when it is wrong.
 */
export async function useSecondFactor(
  db: Kysely<DB>,
  keys: SecretKeys,
  userId: string,
  factor: SecondFactor,
  now: Date,
): Promise<'totp' | 'recovery' | null> {
  if (factor.kind === 'recovery') {
    const used = await db
      .updateTable('two_factor_recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hashRecoveryCode(factor.code))
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return used ? 'recovery' : null;
  }
  const row = await enabledSecondFactor(db, userId);
  if (!row) return null;
  const step = matchingStep(openSecret(keys, row.secret), factor.code, now);
  if (step === null) return null;
  const moved = await db
    .updateTable('user_two_factor')
    .set({ last_step: String(step) })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', String(step))]))
    .returning('user_id')
    .executeTakeFirst();
  return moved ? 'totp' : null;
}

/** How many unused recovery codes the person has left. */
export async function recoveryCodesLeft(db: Kysely<DB>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How the session a challenge leads to is opened. */
export interface PendingSignIn {
  userId: string;
  method: string;
  companyId?: string;
  viaLink: boolean;
}

/** A sign-in waiting for its second factor: a 256-bit token, stored hashed, for 5 minutes. */
export async function issueChallenge(db: Kysely<DB>, pending: PendingSignIn, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + CHALLENGE_LIFETIME_MS);
  await db.deleteFrom('two_factor_challenges').where('expires_at', '<', now).execute();
  await db
    .insertInto('two_factor_challenges')
    .values({
      token_hash: hashToken(token),
      user_id: pending.userId,
      method: pending.method,
      company_id: pending.companyId ?? null,
      via_link: pending.viaLink,
      created_at: now,
      expires_at: expiresAt,
    })
    .execute();
  return { token, expiresAt };
}

const isChallengeToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** The sign-in a usable challenge stands for (unused, unexpired), without using it; null otherwise. */
export async function findChallenge(db: Kysely<DB>, token: string, now: Date): Promise<PendingSignIn | null> {
  if (!isChallengeToken(token)) return null;
  const row = await db
    .selectFrom('two_factor_challenges')
    .select(['user_id', 'method', 'company_id', 'via_link'])
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? { userId: row.user_id, method: row.method, companyId: row.company_id ?? undefined, viaLink: row.via_link } : null;
}

/** Uses the challenge once (one UPDATE, so two right codes at once open one session); false when it was used meanwhile. */
export async function consumeChallenge(db: Kysely<DB>, token: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('two_factor_challenges')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return Boolean(row);
}
