import type { Kysely } from 'kysely';
import { auditActor } from '../../../access/operator.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { ApiError, conflict, notFound } from '../../../errors.ts';
import { secondFactorsOf } from '../../../auth/two-factor.ts';
import { audit } from '../audit/index.ts';
import { validateSettings, type WorkspaceSettingsInput } from './rules.ts';

/**
 * Workspace administration for the operator (`sheaf admin workspace`, first start).
 * These run as the database owner: creating and listing workspaces is, by nature,
 * not scoped to one of them.
 */

export function listWorkspaces(db: Kysely<DB>) {
  return db.selectFrom('companies').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function getWorkspace(db: Kysely<DB>, companyId: string) {
  const company = await db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst();
  if (!company) throw notFound('workspace');
  return company;
}

/** Changes the workspace's settings (owners and administrators in the web app, the operator at the CLI). */
export async function updateWorkspaceSettings(db: Kysely<DB>, p: Principal, input: WorkspaceSettingsInput) {
  const companyId = p.companyId;
  const values = validateSettings(input);
  if (Object.keys(values).length === 0) throw new ApiError('invalid_request', 'Name at least one setting to change.');
  // Requiring a second factor of everyone while having none would hold the administrator back at once.
  if (values.require_two_factor === true && p.kind !== 'operator' && (await secondFactorsOf(db, p.userId)).length === 0) {
    throw conflict('Set up two-factor sign-in or a passkey for yourself (on your profile) before requiring a second factor of everyone.', { field: 'require_two_factor' });
  }
  return db.transaction().execute(async (trx) => {
    const company = await trx
      .updateTable('companies')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', companyId)
      .returningAll()
      .executeTakeFirst();
    if (!company) throw notFound('workspace');
    await audit(trx, {
      ...auditActor(p),
      action: 'workspace.settings_changed',
      subjectType: 'workspace',
      subjectId: companyId,
      details: values as Record<string, unknown>,
    });
    return company;
  });
}

export async function countWorkspaces(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('companies').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
