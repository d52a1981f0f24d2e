import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { mayRecordOnProject } from '../../../access/time.ts';
import type { Tx } from '../../../db/tenant.ts';
import { projectsWithOwnAssignment } from '../week/index.ts';

/** A project as the expense screens show and offer it. */
export interface ExpenseProject {
  id: string;
  name: string;
  code: string | null;
  client_id: string;
  client_name: string;
  /** The client's currency, else the workspace's: the currency of the project's expenses. */
  currency: string;
  /** A new expense's default billable there (the project's is_billable). */
  billable: boolean;
  /** Whether the caller may record a new expense on it (active, and the create's assignment rule). */
  can_record: boolean;
}

/**
 * The projects of the expense screens: those the caller may record an expense
 * on (active; owners and administrators anywhere, others where actively
 * assigned: the create's rule, mayRecordOnProject), and those of the caller's
 * own expenses (archived or unassigned ones too, so old expenses keep their
 * names and currency), and those named in `include` (the listed expenses', read
 * just before: one deleted meanwhile still finds its project). One query.
 */
export async function expenseProjects(trx: Tx, p: Principal, include: ReadonlySet<string> = new Set()): Promise<ExpenseProject[]> {
  const rows = await projectsWithOwnAssignment(trx, p.companyId, p.userId)
    .innerJoin('companies as co', 'co.id', 'p.company_id')
    .select([
      'p.id',
      'p.name',
      'p.code',
      'c.id as client_id',
      'c.name as client_name',
      sql<string>`coalesce(c.currency, co.currency)`.as('currency'),
      'p.is_billable as billable',
      'p.is_active',
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('expenses as ex')
              .select('ex.id')
              .whereRef('ex.company_id', '=', 'p.company_id')
              .whereRef('ex.project_id', '=', 'p.id')
              .where('ex.user_id', '=', p.userId),
          )
          .as('has_own_expenses'),
    ])
    .orderBy('c.name')
    .orderBy('p.name')
    .orderBy('p.id')
    .execute();
  return rows
    .map(({ is_active, assignment_active, has_own_expenses, ...project }) => ({
      ...project,
      can_record: is_active && mayRecordOnProject({ role: p.role }, { is_active: assignment_active }),
      has_own_expenses,
    }))
    .filter((r) => r.can_record || r.has_own_expenses || include.has(r.id))
    .map(({ has_own_expenses: _, ...project }) => project);
}

/** The workspace's expense categories, active first by name (archived ones name old expenses and stay filterable). */
export function expenseCategories(trx: Tx, companyId: string) {
  return trx
    .selectFrom('expense_categories')
    .select(['id', 'name', 'unit_name', 'unit_price', 'is_active'])
    .where('company_id', '=', companyId)
    .orderBy('is_active', 'desc')
    .orderBy('name')
    .orderBy('id')
    .execute();
}
