import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { newId } from '../../ids.ts';
import { ApiError, badRequest, notFound } from '../../errors.ts';
import { audit } from '../audit/service.ts';
import { seedExpenseCategories } from '../expense-categories/service.ts';
import { validateSettings, type WorkspaceSettingsInput } from './settings.ts';

/**
 * Workspace administration for the operator (`sheaf admin workspace`, first start).
 * These run as the database owner: creating and listing workspaces is, by nature,
 * not scoped to one of them.
 */
export async function createWorkspace(db: Kysely<DB>, input: WorkspaceSettingsInput & { name: string }) {
  if (input.name === undefined) throw badRequest('A workspace needs a name.', { field: 'name' });
  const values = validateSettings(input);
  return db.transaction().execute(async (trx) => {
    const company = await trx
      .insertInto('companies')
      .values({ id: newId(), name: values.name!, ...values })
      .returningAll()
      .executeTakeFirstOrThrow();
    await seedExpenseCategories(trx, company.id);
    await audit(trx, { companyId: company.id, action: 'workspace.created', subjectType: 'workspace', subjectId: company.id });
    return company;
  });
}

export function listWorkspaces(db: Kysely<DB>) {
  return db.selectFrom('companies').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function getWorkspace(db: Kysely<DB>, companyId: string) {
  const company = await db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst();
  if (!company) throw notFound('workspace');
  return company;
}

export async function updateWorkspaceSettings(db: Kysely<DB>, companyId: string, input: WorkspaceSettingsInput) {
  const values = validateSettings(input);
  if (Object.keys(values).length === 0) throw new ApiError('invalid_request', 'Name at least one setting to change.');
  return db.transaction().execute(async (trx) => {
    const company = await trx
      .updateTable('companies')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', companyId)
      .returningAll()
      .executeTakeFirst();
    if (!company) throw notFound('workspace');
    await audit(trx, {
      companyId,
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
