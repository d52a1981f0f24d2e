import type { Kysely } from 'kysely';
import type { DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { todayIn } from '../src/time/workspace-time.ts';
import { addMember, issueKey, request, type Caller, type TestContext } from './helpers.ts';

/**
 * Fixtures for the projects and project-assignment tests. Clients and tasks are
 * inserted straight into the database (their APIs are built separately); projects
 * are created through the API unless a test needs a raw row.
 */

export interface ProjectWorkspace {
  companyId: string;
  owner: Caller;
  admin: Caller;
  /** manager with edit_projects, view_billable_rates and view_internal_costs */
  mgrAll: Caller;
  /** manager with edit_projects only */
  mgrEdit: Caller;
  /** manager with edit_projects and view_billable_rates (no internal costs) */
  mgrEditRates: Caller;
  /** manager with view_billable_rates only (no edit_projects) */
  mgrRates: Caller;
  /** manager with view_internal_costs only */
  mgrCosts: Caller;
  /** manager without any permission flag */
  mgrPlain: Caller;
  member: Caller;
  /** member flagged as contractor */
  contractor: Caller;
  /** personal sync key of `member` */
  memberPersonal: Caller;
  /** personal sync key of `admin` */
  adminPersonal: Caller;
  /** an active client */
  clientId: string;
}

export async function makeProjectWorkspace(db: Kysely<DB>, name = 'Acme', timezone = 'UTC'): Promise<ProjectWorkspace> {
  const company = await createWorkspace(db, { name, timezone });
  const c = company.id;
  const admin = await addMember(db, c, { role: 'administrator', firstName: 'Ada', lastName: 'Admin' });
  const member = await addMember(db, c, { role: 'member', firstName: 'Mia', lastName: 'Member' });
  return {
    companyId: c,
    owner: await addMember(db, c, { role: 'owner', firstName: 'Olive', lastName: 'Owner' }),
    admin,
    mgrAll: await addMember(db, c, { role: 'manager', permissions: ['edit_projects', 'view_billable_rates', 'view_internal_costs'] }),
    mgrEdit: await addMember(db, c, { role: 'manager', permissions: ['edit_projects'] }),
    mgrEditRates: await addMember(db, c, { role: 'manager', permissions: ['edit_projects', 'view_billable_rates'] }),
    mgrRates: await addMember(db, c, { role: 'manager', permissions: ['view_billable_rates'] }),
    mgrCosts: await addMember(db, c, { role: 'manager', permissions: ['view_internal_costs'] }),
    mgrPlain: await addMember(db, c, { role: 'manager' }),
    member,
    contractor: await addMember(db, c, { role: 'member', isContractor: true }),
    memberPersonal: await issueKey(db, c, member.userId, member.email, 'personal'),
    adminPersonal: await issueKey(db, c, admin.userId, admin.email, 'personal'),
    clientId: await insertClient(db, c, `Client ${newId().slice(-6)}`),
  };
}

export async function insertClient(db: Kysely<DB>, companyId: string, name = `Client ${newId().slice(-8)}`, isActive = true) {
  const id = newId();
  // An old timestamp, so the client never makes a project look changed (updated_at is the latest of both).
  const longAgo = new Date('2020-01-01T00:00:00Z');
  await db
    .insertInto('clients')
    .values({ company_id: companyId, id, name, is_active: isActive, created_at: longAgo, updated_at: longAgo })
    .execute();
  return id;
}

export async function insertTask(
  db: Kysely<DB>,
  companyId: string,
  options: { name?: string; rate?: string | null; isActive?: boolean; isDefault?: boolean; billableByDefault?: boolean } = {},
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
      is_default: options.isDefault ?? false,
      billable_by_default: options.billableByDefault ?? true,
    })
    .execute();
  return id;
}

/** A bare project row (for other workspaces and raw fixtures). */
export async function insertProjectRow(db: Kysely<DB>, companyId: string, clientId: string, options: { isActive?: boolean } = {}) {
  const id = newId();
  await db
    .insertInto('projects')
    .values({ company_id: companyId, id, client_id: clientId, name: `Raw ${id.slice(-8)}`, is_active: options.isActive ?? true })
    .execute();
  return id;
}

export async function assign(
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

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export function apiOf(ctx: () => TestContext) {
  return (caller: Caller | null, method: Method, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(ctx().app, caller, { method, url, payload: body === undefined ? undefined : (body as object), headers });
}

/** Today in the workspace's zone, as the service computes it from the test clock. */
export async function workspaceTodayOf(ctx: TestContext, companyId: string) {
  const company = await ctx.db.selectFrom('companies').select('timezone').where('id', '=', companyId).executeTakeFirstOrThrow();
  return todayIn(company.timezone, ctx.clock.now());
}

/** YYYY-MM-DD `days` after (or before) a date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

let counter = 0;
export const uniqueName = (label = 'Project') => `${label} ${++counter} ${Math.random().toString(36).slice(2, 8)}`;
