import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Role } from '../db/types.ts';
import { hasPermission, isAdmin, isManager } from './policy.ts';

/**
 * Who may see and change clients, projects and tasks, and which of their
 * financial fields. Every catalog route and service asks here.
 *
 * Visibility: owners and administrators see every project; everybody else (and a
 * personal sync key, which reads with its owner's visibility) sees the projects
 * they are actively assigned to. Clients follow projects: a client is visible
 * when one of its projects is, or to anyone who may manage clients or projects.
 */

// ---- projects ----

/**
 * Whether the principal sees every project of the workspace: owners and
 * administrators, except through a personal sync key, whose project directory is
 * the projects its owner is actively assigned to whatever the owner's role (the
 * spec's allowlist: "minimal directory of actively assigned projects").
 */
export const seesAllProjects = (p: Principal) => isAdmin(p) && p.kind !== 'personal';

/** SQL condition: the project row aliased `alias` is visible to the principal. */
export function projectVisible(p: Principal, alias = 'projects') {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    if (seesAllProjects(p)) return sql<SqlBool>`true`;
    return eb.exists(
      eb
        .selectFrom('project_user_assignments as vis_pua')
        .select(sql`1`.as('one'))
        .whereRef('vis_pua.company_id', '=', sql.ref(`${alias}.company_id`))
        .whereRef('vis_pua.project_id', '=', sql.ref(`${alias}.id`))
        .where('vis_pua.user_id', '=', p.userId)
        .where('vis_pua.is_active', '=', true),
    );
  };
}

/**
 * SQL condition: the principal actively manages the project whose company and id
 * are the given column references (an assignment with is_project_manager).
 */
export function managesProjectRow(eb: ExpressionBuilder<any, any>, p: Principal, companyRef: string, projectRef: string): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('project_user_assignments as mgd_pua')
      .select(sql`1`.as('one'))
      .whereRef('mgd_pua.company_id', '=', sql.ref(companyRef))
      .whereRef('mgd_pua.project_id', '=', sql.ref(projectRef))
      .where('mgd_pua.user_id', '=', p.userId)
      .where('mgd_pua.is_active', '=', true)
      .where('mgd_pua.is_project_manager', '=', true),
  );
}

/** The caller's own assignment to a project, as loaded by the service (null: not assigned). */
export interface OwnAssignment {
  is_active: boolean;
  is_project_manager: boolean;
}

export const managesProject = (p: Principal, a: OwnAssignment | null) =>
  isManager(p) && !!a && a.is_active && a.is_project_manager;

export const mayCreateProjects = (p: Principal) => hasPermission(p, 'edit_projects');

/** Update, archive and restore: administrators, or managers on assigned projects they manage. */
export const mayUpdateProject = (p: Principal, a: OwnAssignment | null) => isAdmin(p) || managesProject(p, a);

export const mayDeleteProjects = (p: Principal) => isAdmin(p);

/** Who may be assigned to projects (track time on them): internal members, never client memberships. */
export const mayBeAssignedToProjects = (m: { role: Role }) => m.role !== 'client';

/**
 * Who may be made a project's manager (`is_project_manager`): members with the
 * manager role. Owners and administrators already manage every project.
 */
export const mayBeProjectManager = (m: { role: Role }) => m.role === 'manager';

/** Billing and budget properties (rates, fees, budgets) need the billable-rate permission to set. */
export const maySetCommercialFields = (p: Principal) => hasPermission(p, 'view_billable_rates');

/** Hourly rates and fixed fees. */
export const maySeeRates = (p: Principal) => hasPermission(p, 'view_billable_rates');

/** Internal costs: cost rates, cost budgets and project-cost budgets. */
export const maySeeInternalCosts = (p: Principal) => hasPermission(p, 'view_internal_costs');

/** Set and read a rate scope's history directly: billable rates with the billable-rate permission, cost rates with the internal-cost one. */
export const mayManageRate = (p: Principal, kind: 'billable' | 'cost') =>
  kind === 'cost' ? maySeeInternalCosts(p) : maySetCommercialFields(p);

/**
 * A project's budget (and its task budgets). Money budgets follow the money
 * permissions; hours budgets are shown to administrators, to the managers of the
 * project, and to everyone assigned when the project shows its budget to all.
 */
export function maySeeBudget(
  p: Principal,
  project: { budget_by: string; show_budget_to_all: boolean },
  a: OwnAssignment | null,
): boolean {
  if (project.budget_by === 'project_cost') return maySeeInternalCosts(p) && (isAdmin(p) || managesProject(p, a));
  if (project.budget_by === 'task_fees') return maySeeRates(p) && (isAdmin(p) || managesProject(p, a));
  return isAdmin(p) || managesProject(p, a) || project.show_budget_to_all;
}

// ---- clients and contacts ----

/** Whether the principal sees every client of the workspace (else: clients of their visible projects). */
export const seesAllClients = (p: Principal) =>
  hasPermission(p, 'edit_clients_and_tasks') || hasPermission(p, 'edit_projects');

/** SQL condition: the client row aliased `alias` is visible to the principal. */
export function clientVisible(p: Principal, alias = 'clients') {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    if (seesAllClients(p)) return sql<SqlBool>`true`;
    return eb.exists(
      eb
        .selectFrom('projects as vis_p')
        .innerJoin('project_user_assignments as vis_pua', (j) =>
          j.onRef('vis_pua.company_id', '=', 'vis_p.company_id').onRef('vis_pua.project_id', '=', 'vis_p.id'),
        )
        .select(sql`1`.as('one'))
        .whereRef('vis_p.company_id', '=', sql.ref(`${alias}.company_id`))
        .whereRef('vis_p.client_id', '=', sql.ref(`${alias}.id`))
        .where('vis_pua.user_id', '=', p.userId)
        .where('vis_pua.is_active', '=', true),
    );
  };
}

/** Create and update clients and their contacts. */
export const mayWriteClients = (p: Principal) => hasPermission(p, 'edit_clients_and_tasks');

/**
 * Who sees a client's invoicing defaults (`payment_terms`, `payment_days`, `tax`,
 * `tax2`, `discount`): those who may edit clients, and those who may see
 * invoices. Everyone else who sees the client gets it without these properties.
 */
export const seesClientBilling = (p: Principal) => mayWriteClients(p) || hasPermission(p, 'view_invoices');

/** Archive, restore and delete clients: owners and administrators only. */
export const mayArchiveClients = (p: Principal) => isAdmin(p);

// ---- tasks ----

/** Create and edit tasks and task assignments. */
export const mayWriteTasks = (p: Principal) => hasPermission(p, 'edit_clients_and_tasks');
