import type { Kysely } from 'kysely';
import type { BudgetBy, DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';

/**
 * Catalog rows inserted straight through the database (as the login role), so
 * the task tests do not depend on the clients and projects APIs.
 */

export async function insertClient(db: Kysely<DB>, companyId: string, name = `Client ${newId().slice(-6)}`) {
  const id = newId();
  await db.insertInto('clients').values({ company_id: companyId, id, name }).execute();
  return id;
}

export async function insertProject(
  db: Kysely<DB>,
  companyId: string,
  clientId: string,
  options: { name?: string; budgetBy?: BudgetBy; showBudgetToAll?: boolean; isActive?: boolean } = {},
) {
  const id = newId();
  await db
    .insertInto('projects')
    .values({
      company_id: companyId,
      id,
      client_id: clientId,
      name: options.name ?? `Project ${id.slice(-6)}`,
      budget_by: options.budgetBy ?? 'task',
      show_budget_to_all: options.showBudgetToAll ?? false,
      is_active: options.isActive ?? true,
    })
    .execute();
  return id;
}

export async function assignUser(
  db: Kysely<DB>,
  companyId: string,
  projectId: string,
  userId: string,
  options: { manager?: boolean; active?: boolean } = {},
) {
  await db
    .insertInto('project_user_assignments')
    .values({
      company_id: companyId,
      project_id: projectId,
      user_id: userId,
      is_project_manager: options.manager ?? false,
      is_active: options.active ?? true,
    })
    .execute();
}

export async function insertTask(
  db: Kysely<DB>,
  companyId: string,
  options: { name?: string; rate?: string | null; isActive?: boolean; billableByDefault?: boolean; updatedAt?: Date } = {},
) {
  const id = newId();
  await db
    .insertInto('tasks')
    .values({
      company_id: companyId,
      id,
      name: options.name ?? `Task ${id.slice(-8)}`,
      default_hourly_rate: options.rate ?? null,
      is_active: options.isActive ?? true,
      billable_by_default: options.billableByDefault ?? true,
      ...(options.updatedAt ? { created_at: options.updatedAt, updated_at: options.updatedAt } : {}),
    })
    .execute();
  return id;
}

export async function assignTaskRow(
  db: Kysely<DB>,
  companyId: string,
  projectId: string,
  taskId: string,
  options: { active?: boolean; budget?: string | null; billable?: boolean } = {},
) {
  await db
    .insertInto('project_task_assignments')
    .values({
      company_id: companyId,
      project_id: projectId,
      task_id: taskId,
      is_active: options.active ?? true,
      budget: options.budget ?? null,
      billable: options.billable ?? true,
    })
    .execute();
}
