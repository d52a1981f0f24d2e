import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { withTenant } from '../../../db/tenant.ts';
import { translator } from '../../../i18n/index.ts';
import { enqueueMail } from '../../../outbox/enqueue.ts';

/**
 * The workspace whose outbox carries a person's own mail (the outbox is per workspace):
 * the preferred one (the session's) when they are active in it, else their oldest active
 * membership's; null when they belong to none.
 */
export async function mailWorkspaceOf(db: Kysely<DB>, userId: string, preferred: string | null): Promise<string | null> {
  const rows = await db
    .selectFrom('memberships')
    .select('company_id')
    .where('user_id', '=', userId)
    .where('is_active', '=', true)
    .orderBy('created_at')
    .execute();
  return (rows.find((r) => r.company_id === preferred) ?? rows[0])?.company_id ?? null;
}

/** A change to how a person signs in, which they are told of by e-mail. */
export type SecurityChange = 'password_changed' | 'two_factor_enabled' | 'two_factor_disabled' | 'recovery_codes_replaced' | 'passkey_added' | 'passkey_removed' | 'sso_linked';

/**
 * Tells a person, in their language, that how they sign in changed, so that a change they
 * did not make (a stolen session, a stolen password) does not go unnoticed. Sent after the
 * change is committed, through the outbox of one of their workspaces; someone in no active
 * workspace has no outbox and gets none. The e-mail change's own notice is in profile/service.ts.
 */
export async function sendSecurityNotice(db: Kysely<DB>, userId: string, change: SecurityChange, options: { companyId?: string | null; now: Date }) {
  const companyId = await mailWorkspaceOf(db, userId, options.companyId ?? null);
  if (!companyId) return;
  const user = await db.selectFrom('users').select(['email', 'first_name', 'last_name', 'language']).where('id', '=', userId).executeTakeFirstOrThrow();
  const t = translator(user.language);
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  const text = [t('mail.greeting', { name: user.first_name }), '', t(`securityMail.${change}`), '', t('securityMail.notYou')].join('\n');
  await withTenant(db, companyId, (trx) =>
    enqueueMail(trx, companyId, change, { to: [{ email: user.email, name }], subject: t(`securityMail.${change}_subject`), text }, options.now),
  );
}
