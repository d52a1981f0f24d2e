import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { newId } from '../../../ids.ts';
import { ApiError, badRequest, notFound } from '../../../errors.ts';
import { audit } from '../audit/service.ts';
import { seedExpenseCategories } from '../../tracking/expense-categories/service.ts';
import { validateSettings, type WorkspaceSettingsInput } from './rules.ts';

/**
 * Workspace administration for the operator (`sheaf admin workspace`, first start).
 * These run as the database owner: creating and listing workspaces is, by nature,
 * not scoped to one of them.
 */

/**
 * The settings a new workspace starts with (first start and `sheaf admin
 * workspace create`), where they differ from the columns' defaults: the
 * workflow of one person who tracks and invoices their own time. Approvals are
 * off (nobody else to approve, and an approved week locks) and documented work
 * may be invoiced before approval; turning approvals on is one setting away.
 * Settings given explicitly win.
 */
export const NEW_WORKSPACE_SETTINGS = { approvals_enabled: false, invoice_before_approval: true } as const satisfies WorkspaceSettingsInput;

/**
 * The default tasks of a new workspace (`is_default`: assigned to projects
 * created without `task_ids`), Harvest's starting list; business development is
 * not billable by default.
 */
export const DEFAULT_TASKS: ReadonlyArray<{ name: string; billable_by_default: boolean }> = [
  { name: 'Design', billable_by_default: true },
  { name: 'Programming', billable_by_default: true },
  { name: 'Project Management', billable_by_default: true },
  { name: 'Marketing', billable_by_default: true },
  { name: 'Business Development', billable_by_default: false },
];

/**
 * Creates a workspace as an operator gets it (first start, `sheaf admin
 * workspace create`): NEW_WORKSPACE_SETTINGS under the settings given, the
 * DEFAULT_TASKS and the starter expense categories, in one transaction.
 */
export function provisionWorkspace(db: Kysely<DB>, input: WorkspaceSettingsInput & { name: string }) {
  return createWorkspace(db, { ...NEW_WORKSPACE_SETTINGS, ...input }, { defaultTasks: true, starterCategories: true });
}

/**
 * Creates a workspace with exactly the settings given (the columns' defaults
 * for the rest) and its LLM usage expense category; with `defaultTasks`, the
 * default tasks too, and with `starterCategories` the starter set of expense
 * categories. Operators go through provisionWorkspace; tests build bare
 * workspaces with this.
 */
export async function createWorkspace(
  db: Kysely<DB>,
  input: WorkspaceSettingsInput & { name: string },
  options: { defaultTasks?: boolean; starterCategories?: boolean } = {},
) {
  if (input.name === undefined) throw badRequest('A workspace needs a name.', { field: 'name' });
  const values = validateSettings(input);
  return db.transaction().execute(async (trx) => {
    const company = await trx
      .insertInto('companies')
      .values({ id: newId(), name: values.name!, ...values })
      .returningAll()
      .executeTakeFirstOrThrow();
    await seedExpenseCategories(trx, company.id, new Date(), { starter: options.starterCategories });
    if (options.defaultTasks) {
      await trx
        .insertInto('tasks')
        .values(DEFAULT_TASKS.map((t) => ({ company_id: company.id, id: newId(), name: t.name, billable_by_default: t.billable_by_default, is_default: true })))
        .execute();
    }
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

export async function updateWorkspaceSettings(db: Kysely<DB>, companyId: string, input: WorkspaceSettingsInput, actor?: { userId: string }) {
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
      actorUserId: actor?.userId,
      details: values as Record<string, unknown>,
    });
    return company;
  });
}

export async function countWorkspaces(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('companies').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
