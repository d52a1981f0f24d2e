import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { ApiError } from '../errors.ts';

/**
 * Whether a person may sign in with a password (docs/decisions.md, "Single sign-on (issue 28
 * item 1)"): not when every workspace they are an active member of signs in through its
 * identity provider and has turned passwords off, unless they own one of them (an owner keeps
 * the password, so a broken provider never locks a workspace out). Asked after the password
 * was verified, so the refusal tells a stranger nothing; a reset is refused too (no reset
 * e-mail is sent, and a link sent before passwords were turned off sets no password), or it
 * would be a way in around the provider.
 */
export async function passwordSignInAllowed(db: Kysely<DB>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships as m')
    .leftJoin('single_sign_on_configs as s', 's.company_id', 'm.company_id')
    .select([
      sql<number>`count(*)::int`.as('memberships'),
      sql<number>`count(*) filter (where s.allow_password_sign_in = false and m.role <> 'owner')::int`.as('sso_only'),
    ])
    .where('m.user_id', '=', userId)
    .where('m.is_active', '=', true)
    .executeTakeFirstOrThrow();
  return !(row.memberships > 0 && row.sso_only === row.memberships);
}

/** 403 password_sign_in_disabled unless the person may sign in with a password (a reset's new password included). */
export async function assertPasswordSignInAllowed(db: Kysely<DB>, userId: string) {
  if (!(await passwordSignInAllowed(db, userId))) {
    throw new ApiError('password_sign_in_disabled', 'Your workspace signs in through its identity provider: use the single sign-on button instead of a password.');
  }
}
