import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { badRequest, conflict } from '../../../errors.ts';
import type { SessionRow } from '../../../auth/sessions.ts';
import { beginSignInAttempt, signInSucceeded, throttled } from '../../../auth/sign-in-throttle.ts';
import {
  enabledSecondFactor,
  matchingStep,
  newTotpSecret,
  otpauthUri,
  parseSecondFactor,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  useSecondFactor,
} from '../../../auth/two-factor.ts';
import { openSecret, sealSecret, type SecretKeys } from '../../../auth/secret-box.ts';
import { auditAccountEvent } from '../../workspace/audit/index.ts';
import { assertCurrentPassword } from '../sessions/index.ts';
import { sendSecurityNotice } from '../users/index.ts';
import { listPasskeys } from '../passkeys/index.ts';
import type { DisableTwoFactor, TwoFactorSetup, TwoFactorState } from './schemas.ts';

/**
 * Setting up, using and turning off two-factor codes (TOTP) on one's own account
 * (docs/decisions.md, "Two-factor codes"). Account-level: a person's codes serve every
 * workspace they sign in to; the changes are recorded in each of their workspaces' logs.
 */

/** Where a request came from, for the throttle and the log. */
export interface From {
  address: string;
  device: string | undefined;
  userAgent?: string;
  now: Date;
}

const notEnabled = () => conflict('Two-factor sign-in is not set up.');
const secretKeyMissing = () =>
  conflict('Two-factor sign-in needs a secret key on the server (SHEAF_SECRET_KEY), which this one lacks: ask whoever runs Sheaf to set it.');

export async function twoFactorState(db: Kysely<DB>, keys: SecretKeys, session: SessionRow): Promise<Static<typeof TwoFactorState>> {
  const [row, left, passkeys, company] = await Promise.all([
    enabledSecondFactor(db, session.user_id),
    recoveryCodesLeft(db, session.user_id),
    listPasskeys(db, session.user_id),
    session.company_id
      ? db.selectFrom('companies').select('require_two_factor').where('id', '=', session.company_id).executeTakeFirst()
      : Promise.resolve(undefined),
  ]);
  return {
    enabled: row !== undefined,
    enabled_at: row?.enabled_at?.toISOString() ?? null,
    recovery_codes_left: row ? left : 0,
    required: company?.require_two_factor === true,
    available: keys.length > 0,
    passkeys: passkeys.passkeys,
  };
}

/**
 * A new secret, not yet in force: the person scans it and confirms it with a first code
 * (enableTwoFactor). A second setup replaces an unconfirmed one; with codes already on, 409.
 */
export async function startSetup(db: Kysely<DB>, keys: SecretKeys, session: SessionRow, now: Date): Promise<Static<typeof TwoFactorSetup>> {
  if (await enabledSecondFactor(db, session.user_id)) throw conflict('Two-factor sign-in is set up already: turn it off first to set it up anew.');
  if (keys.length === 0) throw secretKeyMissing();
  const user = await db.selectFrom('users').select('email').where('id', '=', session.user_id).executeTakeFirstOrThrow();
  const secret = newTotpSecret();
  const sealed = sealSecret(keys, secret);
  await db
    .insertInto('user_two_factor')
    .values({ user_id: session.user_id, secret: sealed, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret: sealed, enabled_at: null, last_step: null, updated_at: now }))
    .execute();
  const uri = otpauthUri(secret, user.email);
  // Loaded on the first setup, not at start (docs/architecture.md: heavy files lazily).
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauth_uri: uri, qr_svg: svg };
}

/** Confirms the set-up secret with a first code: two-factor sign-in is on, and the ten recovery codes are returned, this once. */
export async function enableTwoFactor(db: Kysely<DB>, keys: SecretKeys, session: SessionRow, code: string, from: From): Promise<string[]> {
  const factor = parseSecondFactor(code);
  if (factor.kind !== 'totp') throw badRequest('Enter the 6 digits your authenticator app shows.', { field: 'code' });
  const pending = await db.selectFrom('user_two_factor').select(['secret', 'enabled_at']).where('user_id', '=', session.user_id).executeTakeFirst();
  if (!pending) throw conflict('Start setting up two-factor sign-in first.');
  if (pending.enabled_at) throw conflict('Two-factor sign-in is set up already.');
  const step = matchingStep(openSecret(keys, pending.secret), factor.code, from.now);
  if (step === null) throw badRequest('The code is not right: check the time on your device and enter the code it shows now.', { field: 'code' });
  const codes = await db.transaction().execute(async (trx) => {
    const enabled = await trx
      .updateTable('user_two_factor')
      .set({ enabled_at: from.now, last_step: String(step), updated_at: from.now })
      .where('user_id', '=', session.user_id)
      .where('enabled_at', 'is', null)
      .where('secret', '=', pending.secret)
      .returning('user_id')
      .executeTakeFirst();
    if (!enabled) throw conflict('Two-factor sign-in was set up or started anew meanwhile; reload the page.');
    const codes = await replaceRecoveryCodes(trx, session.user_id, from.now);
    await auditAccountEvent(trx, session.user_id, 'two_factor.enabled', { address: from.address });
    return codes;
  });
  await sendSecurityNotice(db, session.user_id, 'two_factor_enabled', { companyId: session.company_id, now: from.now });
  return codes;
}

/**
 * Checks a code (or recovery code) for a change to one's own two-factor sign-in, under
 * the sign-in throttle (wrong codes count as failed sign-ins of the account; 429 past the
 * limits); a wrong code is 400 naming `code` and is recorded in the person's logs.
 */
async function assertCode(db: Kysely<DB>, keys: SecretKeys, userId: string, code: string, purpose: string, from: From) {
  const factor = parseSecondFactor(code);
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
  const attempt = { email: user.email, address: from.address, device: from.device, at: from.now };
  const wait = await beginSignInAttempt(db, attempt);
  if (wait > 0) throw throttled(wait);
  const used = await useSecondFactor(db, keys, userId, factor, from.now);
  if (!used) {
    await auditAccountEvent(db, userId, 'two_factor.code_refused', { purpose, address: from.address });
    throw badRequest('The code is not right, or it was used already: wait for the next one.', { field: 'code' });
  }
  await signInSucceeded(db, attempt);
  if (used === 'recovery') await auditAccountEvent(db, userId, 'two_factor.recovery_used', { purpose, address: from.address });
}

/** Turns two-factor sign-in off: the password (when the person has one) and a current code or recovery code. */
export async function disableTwoFactor(db: Kysely<DB>, keys: SecretKeys, session: SessionRow, input: Static<typeof DisableTwoFactor>, from: From) {
  parseSecondFactor(input.code);
  if (!(await enabledSecondFactor(db, session.user_id))) throw notEnabled();
  await assertCurrentPassword(db, session.user_id, input.current_password);
  await assertCode(db, keys, session.user_id, input.code, 'disable', from);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_two_factor').where('user_id', '=', session.user_id).execute();
    await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', session.user_id).execute();
    await trx.deleteFrom('two_factor_challenges').where('user_id', '=', session.user_id).execute();
    await auditAccountEvent(trx, session.user_id, 'two_factor.disabled', { address: from.address });
  });
  await sendSecurityNotice(db, session.user_id, 'two_factor_disabled', { companyId: session.company_id, now: from.now });
}

/** Ten new recovery codes in place of the old ones (which stop working), with a current code. */
export async function regenerateRecoveryCodes(db: Kysely<DB>, keys: SecretKeys, session: SessionRow, code: string, from: From): Promise<string[]> {
  parseSecondFactor(code);
  if (!(await enabledSecondFactor(db, session.user_id))) throw notEnabled();
  await assertCode(db, keys, session.user_id, code, 'recovery_codes', from);
  const codes = await db.transaction().execute(async (trx) => {
    const fresh = await replaceRecoveryCodes(trx, session.user_id, from.now);
    await auditAccountEvent(trx, session.user_id, 'two_factor.recovery_regenerated', { address: from.address });
    return fresh;
  });
  await sendSecurityNotice(db, session.user_id, 'recovery_codes_replaced', { companyId: session.company_id, now: from.now });
  return codes;
}

/**
 * An operator turns off a person's two-factor sign-in (`sheaf admin two-factor reset`: a lost
 * phone and no recovery codes): their next sign-in asks for the password alone, or for a new
 * set-up where a workspace requires one. Recorded in their workspaces' logs and e-mailed to
 * them. Returns whether they had it on.
 */
export async function resetTwoFactor(db: Kysely<DB>, userId: string, now: Date): Promise<boolean> {
  const had = await db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('user_two_factor').where('user_id', '=', userId).returning('enabled_at').execute();
    await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute();
    const enabled = removed.some((r) => r.enabled_at !== null);
    if (enabled) await auditAccountEvent(trx, userId, 'two_factor.reset', { by: 'operator' });
    return enabled;
  });
  if (had) await sendSecurityNotice(db, userId, 'two_factor_disabled', { now });
  return had;
}
