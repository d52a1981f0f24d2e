import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { isAdmin } from '../../../access/policy.ts';
import { withTenant } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { badRequest, forbidden } from '../../../errors.ts';
import type { ExportFile, Row } from '../../../http/exports.ts';
import { isId, newId } from '../../../ids.ts';
import { auditLogPage, workspaceTimezone, type AuditFilter } from './queries.ts';
import { AUDIT_CSV_COLUMNS, auditCsvRow, presentAuditEntry, type AuditEntry } from './presenter.ts';
import { auditPeriod, SIGN_IN_FAILED, SIGN_IN_SUCCEEDED, type AuditKind } from './rules.ts';
import type { AuditAction } from './actions.ts';

export interface AuditEntryInput {
  companyId: string;
  action: AuditAction;
  subjectType: string;
  subjectId?: string | null;
  actorUserId?: string | null;
  credentialId?: string | null;
  details?: Record<string, unknown>;
}

/** Appends to the workspace's audit log, in the caller's transaction. */
export async function audit(trx: Kysely<DB> | Transaction<DB>, entry: AuditEntryInput) {
  await trx
    .insertInto('audit_logs')
    .values({
      company_id: entry.companyId,
      id: newId(),
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId ?? null,
      actor_user_id: entry.actorUserId ?? null,
      credential_id: entry.credentialId ?? null,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}

/** What a sign-in records: where from, with which browser, and how. */
export interface SignInRecord {
  address: string;
  userAgent?: string;
  /** password, link (a one-time sign-in link), reset (a password-reset link), invitation, and whatever other ways of signing in add. */
  method: string;
  /** Why a sign-in failed: wrong_password (the default) or wrong_code (a two-factor code). */
  reason?: 'wrong_password' | 'wrong_code' | 'passkey_refused';
}

/**
 * A sign-in belongs to a person, not a workspace (a session may switch to any of their
 * workspaces), so it is recorded in the log of every workspace where they are an active
 * member: one INSERT … SELECT, the only statement it adds to signing in. The person is
 * its actor and subject.
 */
export function auditSignIn(db: Kysely<DB>, userId: string, record: SignInRecord) {
  return auditInWorkspacesOf(db, { userId }, SIGN_IN_SUCCEEDED, { method: record.method, ...whereFrom(record) });
}

/**
 * A refused password, recorded the same way in the workspaces of the account the
 * e-mail address names, with that person as actor (someone signing in as them) and
 * subject. An address no human account has names no workspace: nothing is written
 * here; the sign-in throttle's own table counts it (src/auth/sign-in-throttle.ts).
 */
export function auditFailedSignIn(db: Kysely<DB>, email: string, record: SignInRecord) {
  return auditInWorkspacesOf(db, { email }, SIGN_IN_FAILED, { method: record.method, reason: record.reason ?? 'wrong_password', ...whereFrom(record) });
}

/**
 * A change to a person's own sign-in (their two-factor codes): like a sign-in it is the
 * person's, not one workspace's, so it goes to the log of each workspace where they are
 * an active member, with them as actor and subject.
 */
export function auditAccountEvent(db: Kysely<DB>, userId: string, action: AuditAction, details: Record<string, unknown> = {}) {
  return auditInWorkspacesOf(db, { userId }, action, details);
}

const whereFrom = (r: SignInRecord) => ({ address: r.address, ...(r.userAgent ? { user_agent: r.userAgent.slice(0, 512) } : {}) });

async function auditInWorkspacesOf(db: Kysely<DB>, who: { userId: string } | { email: string }, action: AuditAction, details: object) {
  // The rows' ids are the database's random UUIDs: how many workspaces there are is known only to the
  // statement. The log's order is occurred_at (then id), so an id's kind does not matter to it.
  const person = 'userId' in who ? sql`u.id = ${who.userId}` : sql`u.email = ${who.email} and u.user_type = 'human'`;
  await sql`
    insert into audit_logs (company_id, id, actor_user_id, action, subject_type, subject_id, details)
    select m.company_id, gen_random_uuid(), u.id, ${action}::text, 'user', u.id, ${JSON.stringify(details)}::jsonb
    from users u join memberships m on m.user_id = u.id and m.is_active
    where ${person}`.execute(db);
}

/** The audit page's query, as the web route parses it. */
export interface AuditQuery {
  person_id?: string;
  kind?: AuditKind;
  from?: string;
  to?: string;
  before?: string;
  per_page?: number;
}

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;
/** Rows per database read of the CSV export. */
const EXPORT_BATCH = 1000;

function assertAdministrator(p: Principal) {
  if (!isAdmin(p)) throw forbidden('Only owners and administrators see the audit log.');
}

function checkedIds(query: AuditQuery) {
  if (query.person_id !== undefined && !isId(query.person_id)) throw badRequest('person_id must be the id of a person.', { field: 'person_id' });
  if (query.before !== undefined && !isId(query.before)) throw badRequest('before must be the id of the last entry shown.', { field: 'before' });
}

async function filterOf(trx: Parameters<typeof workspaceTimezone>[0], p: Principal, query: AuditQuery): Promise<{ filter: AuditFilter; timezone: string }> {
  const timezone = await workspaceTimezone(trx, p.companyId);
  const filter = { actorUserId: query.person_id, kinds: query.kind ? [query.kind] : undefined, period: auditPeriod(query.from, query.to, timezone) };
  return { filter, timezone };
}

/** GET /web/api/audit_logs: a page of the log, newest first; `next_before` continues it (null on the last page). */
export function listAuditLog(db: Kysely<DB>, p: Principal, query: AuditQuery): Promise<{ audit_logs: AuditEntry[]; next_before: string | null }> {
  assertAdministrator(p);
  checkedIds(query);
  const limit = query.per_page ?? AUDIT_PAGE_DEFAULT;
  return withTenant(db, p.companyId, async (trx) => {
    const { filter } = await filterOf(trx, p, query);
    const rows = await auditLogPage(trx, p.companyId, filter, limit + 1, query.before);
    const page = rows.slice(0, limit);
    return { audit_logs: page.map(presentAuditEntry), next_before: rows.length > limit ? page.at(-1)!.id : null };
  });
}

/**
 * GET /web/api/audit_logs.csv: every entry the filters select, newest first, read in
 * keyset batches of their own short transactions as the download drains (src/http/exports.ts).
 * The checks run before the first byte, so a refusal is a plain 4xx.
 */
export async function exportAuditLog(db: Kysely<DB>, p: Principal, query: Omit<AuditQuery, 'before' | 'per_page'>): Promise<ExportFile> {
  assertAdministrator(p);
  checkedIds(query);
  const { filter, timezone } = await withTenant(db, p.companyId, (trx) => filterOf(trx, p, query));
  async function* batches(): AsyncGenerator<Row[]> {
    let before: string | undefined;
    for (;;) {
      const rows = await withTenant(db, p.companyId, (trx) => auditLogPage(trx, p.companyId, filter, EXPORT_BATCH, before));
      if (rows.length) yield rows.map((r) => auditCsvRow(presentAuditEntry(r), timezone));
      if (rows.length < EXPORT_BATCH) return;
      before = rows.at(-1)!.id;
    }
  }
  return { format: 'csv', name: 'audit-log', sheet: 'Audit log', columns: AUDIT_CSV_COLUMNS, batches: batches() };
}
