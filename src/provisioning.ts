import type { Kysely } from 'kysely';
import type { DB } from './db/types.ts';
import { badRequest } from './errors.ts';
import { newId } from './ids.ts';
import { audit } from './modules/workspace/audit/index.ts';
import { validateSettings, type WorkspaceSettingsInput } from './modules/workspace/settings/index.ts';
import { seedExpenseCategories } from './modules/tracking/expense-categories/index.ts';
import { seedItemCategories } from './modules/billing/item-categories/index.ts';

/**
 * A new workspace with what it starts with from several domains (its settings, default tasks,
 * expense categories), for the operator (first start, `sheaf admin workspace create`) and the
 * tests. It composes domains, so it sits beside bootstrap.ts, above src/modules (docs/architecture.md).
 * It runs as the database owner: creating a workspace is, by nature, not scoped to one.
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
 * for the rest), its LLM usage expense category and the built-in invoice item
 * categories (Service, Product); with `defaultTasks`, the
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
    // Every workspace, bare ones too: a line's kind must name a category, and `Service` is the default.
    await seedItemCategories(trx, company.id);
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
