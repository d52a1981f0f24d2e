import { sql, type Expression, type ExpressionBuilder, type SqlBool, type Updateable } from 'kysely';
import { clientVisible, projectVisible } from '../../../access/catalog.ts';
import { invoiceableProject, invoiceVisible } from '../../../access/invoices.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { ApprovalStatus, DB, InvoiceState } from '../../../db/types.ts';
import { minorDigitsSql } from '../../../db/money-sql.ts';
import { updateRow } from '../../../db/rows.ts';
import type { Tx } from '../../../db/tenant.ts';
import { newId } from '../../../ids.ts';
import { fetchPage, type PageParams } from '../../../http/pagination.ts';
import { CLIENT_WRITABLE } from '../../catalog/clients/index.ts';
import type { PaymentMethod } from './rules.ts';

/**
 * Invoice queries. Every function takes the workspace id first and filters on it
 * (row-level security is the second wall).
 */

// ---------------------------------------------------------------- workspace and client

export function loadWorkspace(trx: Tx, companyId: string) {
  return trx
    .selectFrom('companies')
    .select([
      'name',
      'address',
      'timezone',
      'currency',
      'rounding',
      'rounding_minutes',
      'approvals_enabled',
      'invoice_before_approval',
      'sender_email',
      'sender_phone',
      'tax_id',
    ])
    .where('id', '=', companyId)
    .executeTakeFirst();
}

/** The workspace as invoicing reads it: its sender details, currency, rounding and approval rules. */
export type WorkspaceRow = NonNullable<Awaited<ReturnType<typeof loadWorkspace>>>;

/**
 * A client of the workspace with every property a client's owner may write (catalog/clients'
 * one list: what an invoice, an estimate or a retainer takes from its client); with `visibleTo`,
 * only one that principal can see.
 */
export function findClient(trx: Tx, companyId: string, clientId: string, visibleTo?: Principal) {
  let query = trx
    .selectFrom('clients')
    .select(['id', ...CLIENT_WRITABLE])
    .where('company_id', '=', companyId)
    .where('id', '=', clientId);
  if (visibleTo) query = query.where(clientVisible(visibleTo, 'clients'));
  return query.executeTakeFirst();
}

export type InvoiceClientRow = NonNullable<Awaited<ReturnType<typeof findClient>>>;

/**
 * The projects an invoice of `clientId` may name, for a caller: every project of
 * the client (any state), plus the other projects among `ids`, each with whether
 * the caller sees it and may invoice it. Ids must be well formed (isId).
 */
export function invoiceProjectRows(trx: Tx, p: Principal, clientId: string, ids: string[]) {
  return trx
    .selectFrom('projects')
    .select((eb) => [
      'id',
      'name',
      'code',
      'client_id',
      sql<boolean>`(${projectVisible(p, 'projects')(eb)})`.as('visible'),
      sql<boolean>`(${invoiceableProject(p, 'projects')(eb)})`.as('invoiceable'),
    ])
    .where('company_id', '=', p.companyId)
    .where((eb) => (ids.length > 0 ? eb.or([eb('client_id', '=', clientId), eb('id', 'in', ids)]) : eb('client_id', '=', clientId)))
    .execute();
}

/**
 * A project an invoice may name, with `visible` (the caller sees it: catalog visibility) and
 * `invoiceable` (the caller may invoice its work and lines: access/invoices.invoiceableProject).
 */
export type InvoiceProjectRow = Awaited<ReturnType<typeof invoiceProjectRows>>[number];

// ---------------------------------------------------------------- invoices

/** `updated_at` of the representation: the client name and the creator name are part of it. */
const representationUpdatedAt = sql<Date>`greatest(i.updated_at, c.updated_at, coalesce(u.updated_at, i.updated_at))`;

function invoiceSelect(trx: Tx, companyId: string) {
  return trx
    .selectFrom('invoices as i')
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'i.company_id').onRef('c.id', '=', 'i.client_id'))
    .leftJoin('users as u', 'u.id', 'i.created_by')
    .select([
      'i.id',
      'i.client_id',
      'c.name as client_name',
      'i.number',
      'i.state',
      'i.subject',
      'i.issue_date',
      'i.due_date',
      'i.payment_term',
      'i.currency',
      'i.purchase_order',
      'i.tax',
      'i.tax2',
      'i.discount',
      'i.tax_base_rounded',
      'i.notes',
      'i.period_start',
      'i.period_end',
      'i.service_period_start',
      'i.service_period_end',
      'i.created_by',
      'u.first_name as creator_first_name',
      'u.last_name as creator_last_name',
      'i.sent_at',
      'i.paid_at',
      'i.created_at',
      representationUpdatedAt.as('updated_at'),
      sql<string>`(select coalesce(sum(pay.amount), 0)::text from invoice_payments pay
                   where pay.company_id = i.company_id and pay.invoice_id = i.id)`.as('paid_total'),
    ])
    .where('i.company_id', '=', companyId);
}

export interface InvoiceFilter {
  clientId?: string;
  state?: InvoiceState;
  from?: string;
  to?: string;
  updatedSince?: Date;
}

/** One page of the workspace's invoices (with `visibleTo`, those in its reach): newest issue date first, then newest created, then id (stable). */
export function listInvoices(trx: Tx, companyId: string, filter: InvoiceFilter, page: PageParams, visibleTo?: Principal) {
  let query = invoiceSelect(trx, companyId);
  if (visibleTo) query = query.where(invoiceVisible(visibleTo, 'i'));
  if (filter.clientId) query = query.where('i.client_id', '=', filter.clientId);
  if (filter.state) query = query.where('i.state', '=', filter.state);
  if (filter.from) query = query.where('i.issue_date', '>=', filter.from);
  if (filter.to) query = query.where('i.issue_date', '<=', filter.to);
  if (filter.updatedSince) query = query.where(representationUpdatedAt, '>=', filter.updatedSince);
  return fetchPage(query.orderBy('i.issue_date', 'desc').orderBy('i.created_at', 'desc').orderBy('i.id', 'desc'), page);
}

/**
 * One invoice of the workspace; `lock` takes a row lock on the invoice (not the
 * client); with `visibleTo`, only an invoice in that principal's reach.
 */
export async function findInvoice(
  trx: Tx,
  companyId: string,
  id: string,
  { lock = false, visibleTo }: { lock?: boolean; visibleTo?: Principal } = {},
) {
  let query = invoiceSelect(trx, companyId).where('i.id', '=', id);
  if (visibleTo) query = query.where(invoiceVisible(visibleTo, 'i'));
  if (lock) query = query.forUpdate('i');
  return query.executeTakeFirst();
}

/**
 * An invoice with its client's and creator's names; `updated_at` the latest of the invoice's, its
 * client's and its creator's change (their names are in the body), `paid_total` the sum of the
 * recorded payments as an exact decimal string.
 */
export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

/** The lines of some invoices, in display order: sort_order, then creation (id). */
export async function linesOf(trx: Tx, companyId: string, invoiceIds: string[]) {
  if (invoiceIds.length === 0) return [];
  return trx
    .selectFrom('invoice_line_items')
    .select(['id', 'invoice_id', 'kind', 'description', 'quantity', 'unit_price', 'effect', 'taxed', 'taxed2', 'project_id', 'sort_order', 'import_source', 'retainer_id'])
    .where('company_id', '=', companyId)
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('invoice_id')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export type LineRow = Awaited<ReturnType<typeof linesOf>>[number];

export interface NewLine {
  id: string;
  kind: string;
  description: string | null;
  quantity: string;
  unit_price: string;
  effect: 'charge' | 'credit';
  taxed: boolean;
  taxed2: boolean;
  project_id: string | null;
  sort_order: number;
  import_source: 'time' | 'expense' | null;
  /** The retainer a funding or credit line is linked to (billing/retainers); omitted: none. */
  retainer_id?: string | null;
}

const INSERT_CHUNK = 1000;

export async function insertLines(trx: Tx, companyId: string, invoiceId: string, lines: NewLine[], now: Date) {
  for (let i = 0; i < lines.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('invoice_line_items')
      .values(lines.slice(i, i + INSERT_CHUNK).map((l) => ({ company_id: companyId, invoice_id: invoiceId, ...l, created_at: now, updated_at: now })))
      .execute();
  }
}

export function updateLine(
  trx: Tx,
  companyId: string,
  lineId: string,
  changes: Partial<Pick<LineRow, 'description' | 'unit_price' | 'kind' | 'taxed' | 'taxed2'>>,
  now: Date,
) {
  return updateRow(trx, 'invoice_line_items', companyId, lineId, changes, now);
}

/** Records a payment on an invoice: the one place payments are written (the web app's payments, `sheaf admin invoice mark-paid`). */
export async function insertPayment(
  trx: Tx,
  companyId: string,
  invoiceId: string,
  payment: { amount: string; paid_date: string; method?: PaymentMethod | null; notes: string | null; now: Date },
) {
  await trx
    .insertInto('invoice_payments')
    .values({
      company_id: companyId,
      id: newId(payment.now.getTime()),
      invoice_id: invoiceId,
      amount: payment.amount,
      paid_date: payment.paid_date,
      method: payment.method ?? null,
      notes: payment.notes,
      created_at: payment.now,
    })
    .execute();
}

/** The payments of an invoice, oldest first (by the date paid, then as recorded). */
export function paymentsOf(trx: Tx, companyId: string, invoiceId: string) {
  return trx
    .selectFrom('invoice_payments')
    .select(['id', 'invoice_id', 'amount', 'paid_date', 'method', 'notes', 'created_at'])
    .where('company_id', '=', companyId)
    .where('invoice_id', '=', invoiceId)
    .orderBy('paid_date')
    .orderBy('id')
    .execute();
}

export type PaymentRow = Awaited<ReturnType<typeof paymentsOf>>[number];

/** Deletes one payment of an invoice; the deleted row, or undefined when the invoice has no such payment. */
export function deletePaymentRow(trx: Tx, companyId: string, invoiceId: string, paymentId: string) {
  return trx
    .deleteFrom('invoice_payments')
    .where('company_id', '=', companyId)
    .where('invoice_id', '=', invoiceId)
    .where('id', '=', paymentId)
    .returning(['id', 'amount', 'paid_date', 'method', 'notes'])
    .executeTakeFirst();
}

export function touchInvoice(trx: Tx, companyId: string, id: string, changes: Updateable<DB['invoices']>, now: Date) {
  return updateRow(trx, 'invoices', companyId, id, changes, now);
}

// ---------------------------------------------------------------- billed work

export interface ImportScope {
  clientId: string;
  projectIds: string[];
  from?: string;
  to?: string;
  statuses: ApprovalStatus[];
}

function scopeFilter(alias: 'te' | 'ex', scope: ImportScope) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [
      eb(`${alias}.project_id`, 'in', scope.projectIds),
      eb(`${alias}.billable`, '=', true),
      eb(`${alias}.is_billed`, '=', false),
      eb(`${alias}.approval_status`, 'in', scope.statuses),
      eb('p.is_billable', '=', true),
    ];
    if (scope.from) conditions.push(eb(`${alias}.spent_date`, '>=', scope.from));
    if (scope.to) conditions.push(eb(`${alias}.spent_date`, '<=', scope.to));
    return eb.and(conditions);
  };
}

/** A billable, unbilled time entry; `rate` the billable rate in force on its spent_date (billable_rate()), null when none. */
export type ImportableEntry = Awaited<ReturnType<typeof lockTime>>[number];

/**
 * Locks and returns the billable, unbilled, completed time of the scope, priced
 * at the rate in force on each entry's date. `FOR UPDATE` in id order: a second
 * import racing for the same work waits for the first to commit, then re-checks
 * `not is_billed` on the new row versions and gets only what is still unbilled.
 */
export async function lockImportableTime(trx: Tx, companyId: string, scope: ImportScope): Promise<ImportableEntry[]> {
  const entries = await lockTime(trx, companyId, scope);
  const rates = await ratesOn(trx, companyId, entries);
  for (const e of entries) e.rate = rates.get(rateKey(e)) ?? null;
  return entries;
}

const rateKey = (e: Pick<ImportableEntry, 'project_id' | 'task_id' | 'user_id' | 'spent_date'>) =>
  `${e.project_id}|${e.task_id}|${e.user_id}|${e.spent_date}`;

const RATE_CHUNK = 5000;

/**
 * billable_rate() (the one definition of an entry's price) for each distinct
 * project, task, person and date of the entries, rather than once per entry:
 * each call is a query of its own, and 10,000 entries of one project share a few
 * hundred such keys (this took most of a 10,000-entry import's database time).
 */
async function ratesOn(trx: Tx, companyId: string, entries: ImportableEntry[]): Promise<Map<string, string | null>> {
  const keys = new Map<string, ImportableEntry>();
  for (const e of entries) if (!keys.has(rateKey(e))) keys.set(rateKey(e), e);
  const all = [...keys.values()];
  const rates = new Map<string, string | null>();
  for (let i = 0; i < all.length; i += RATE_CHUNK) {
    const values = sql.join(
      all.slice(i, i + RATE_CHUNK).map((k) => sql`(${k.project_id}::uuid, ${k.task_id}::uuid, ${k.user_id}::uuid, ${k.spent_date}::date)`),
    );
    const { rows } = await sql<{ project_id: string; task_id: string; user_id: string; spent_date: string; rate: string | null }>`
      select k.project_id, k.task_id, k.user_id, k.spent_date,
             billable_rate(${companyId}::uuid, k.project_id, k.task_id, k.user_id, k.spent_date) as rate
      from (values ${values}) as k (project_id, task_id, user_id, spent_date)`.execute(trx);
    for (const r of rows) rates.set(rateKey(r), r.rate);
  }
  return rates;
}

function lockTime(trx: Tx, companyId: string, scope: ImportScope) {
  return trx
    .selectFrom('time_entries as te')
    .innerJoin('projects as p', (j) => j.onRef('p.company_id', '=', 'te.company_id').onRef('p.id', '=', 'te.project_id'))
    .innerJoin('tasks as t', (j) => j.onRef('t.company_id', '=', 'te.company_id').onRef('t.id', '=', 'te.task_id'))
    .innerJoin('users as u', 'u.id', 'te.user_id')
    .select([
      'te.id',
      'te.project_id',
      'te.task_id',
      'te.user_id',
      'te.spent_date',
      'te.duration_seconds',
      'te.hours_entered',
      'te.notes',
      't.name as task_name',
      'u.first_name',
      'u.last_name',
      sql<string | null>`null::numeric`.as('rate'),
    ])
    .where('te.company_id', '=', companyId)
    .where('p.client_id', '=', scope.clientId)
    .where('te.is_running', '=', false)
    .where(scopeFilter('te', scope))
    .orderBy('te.id')
    .forUpdate('te')
    .execute();
}

/** Locks and returns the billable, unbilled expenses of the scope (as lockImportableTime). */
export function lockImportableExpenses(trx: Tx, companyId: string, scope: ImportScope) {
  return trx
    .selectFrom('expenses as ex')
    .innerJoin('projects as p', (j) => j.onRef('p.company_id', '=', 'ex.company_id').onRef('p.id', '=', 'ex.project_id'))
    .innerJoin('expense_categories as ec', (j) =>
      j.onRef('ec.company_id', '=', 'ex.company_id').onRef('ec.id', '=', 'ex.expense_category_id'),
    )
    .innerJoin('users as u', 'u.id', 'ex.user_id')
    .select([
      'ex.id',
      'ex.project_id',
      'ex.user_id',
      'ex.expense_category_id',
      'ex.spent_date',
      'ex.total_cost',
      'ex.notes',
      'ec.name as category_name',
      'u.first_name',
      'u.last_name',
    ])
    .where('ex.company_id', '=', companyId)
    .where('p.client_id', '=', scope.clientId)
    .where(scopeFilter('ex', scope))
    .orderBy('ex.id')
    .forUpdate('ex')
    .execute();
}

export type ImportableExpense = Awaited<ReturnType<typeof lockImportableExpenses>>[number];

const LINK_CHUNK = 2000;

/** Marks records billed and links them to their invoice and line, in chunks of one statement each. */
export async function linkBilled(
  trx: Tx,
  table: 'time_entries' | 'expenses',
  companyId: string,
  invoiceId: string,
  links: Array<{ id: string; lineId: string }>,
  now: Date,
) {
  for (let i = 0; i < links.length; i += LINK_CHUNK) {
    const values = sql.join(links.slice(i, i + LINK_CHUNK).map((l) => sql`(${l.id}::uuid, ${l.lineId}::uuid)`));
    await sql`
      update ${sql.table(table)} as r
      set is_billed = true, invoice_id = ${invoiceId}::uuid, invoice_line_id = v.line_id, updated_at = ${now}
      from (values ${values}) as v (id, line_id)
      where r.company_id = ${companyId}::uuid and r.id = v.id`.execute(trx);
  }
}

/** Releases everything an invoice captured: billed flag off, links cleared. Returns the counts. */
export async function releaseBilled(trx: Tx, companyId: string, invoiceId: string, now: Date) {
  const release = { is_billed: false, invoice_id: null, invoice_line_id: null, updated_at: now };
  const time = await trx
    .updateTable('time_entries')
    .set(release)
    .where('company_id', '=', companyId)
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  const expenses = await trx
    .updateTable('expenses')
    .set(release)
    .where('company_id', '=', companyId)
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  return { time_entries: Number(time.numUpdatedRows), expenses: Number(expenses.numUpdatedRows) };
}

/** Deletes one retainer line (funding or credit) of an invoice; the deleted line, or undefined. */
export function deleteRetainerLine(trx: Tx, companyId: string, invoiceId: string, lineId: string) {
  return trx
    .deleteFrom('invoice_line_items')
    .where('company_id', '=', companyId)
    .where('invoice_id', '=', invoiceId)
    .where('id', '=', lineId)
    .where('retainer_id', 'is not', null)
    .returning(['id', 'retainer_id', 'effect', 'unit_price'])
    .executeTakeFirst();
}

/**
 * Whether the retainers this invoice funds (its funding lines) still hold at least 0, once
 * each retainer's row is locked as a draw locks it (billing/retainers): the check a payment's
 * deletion runs when it takes a paid retainer invoice back to open. The balance is
 * retainer_balance() (migration 0085), the one definition, read after the locks are held.
 */
export async function overdrawnRetainers(trx: Tx, companyId: string, invoiceId: string) {
  const funded = await trx
    .selectFrom('invoice_line_items')
    .select('retainer_id')
    .distinct()
    .where('company_id', '=', companyId)
    .where('invoice_id', '=', invoiceId)
    .where('effect', '=', 'charge')
    .where('retainer_id', 'is not', null)
    .execute();
  const ids = funded.map((f) => f.retainer_id!).sort();
  if (ids.length === 0) return [];
  await trx.selectFrom('retainers').select('id').where('company_id', '=', companyId).where('id', 'in', ids).orderBy('id').forUpdate().execute();
  const { rows } = await sql<{ id: string; name: string; balance: string }>`
    select r.id, r.name, retainer_balance(r.company_id, r.id)::text as balance from retainers r
    where r.company_id = ${companyId}::uuid and r.id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(trx);
  return rows.filter((r) => r.balance.startsWith('-'));
}

export async function deleteInvoiceRow(trx: Tx, companyId: string, id: string) {
  await trx.deleteFrom('invoices').where('company_id', '=', companyId).where('id', '=', id).execute();
}

/** Receipt files of the invoice's billed expenses (for attach_expense_receipts). */
export function receiptsOf(trx: Tx, companyId: string, invoiceId: string) {
  return trx
    .selectFrom('expenses as ex')
    .innerJoin('files as f', (j) => j.onRef('f.company_id', '=', 'ex.company_id').onRef('f.id', '=', 'ex.receipt_file_id'))
    .select(['f.id', 'f.filename', 'f.content_type'])
    .distinct()
    .where('ex.company_id', '=', companyId)
    .where('ex.invoice_id', '=', invoiceId)
    .orderBy('f.id')
    .execute();
}

/** The id of the workspace's invoice with this number, if any. */
export async function findInvoiceIdByNumber(trx: Tx, companyId: string, number: string): Promise<string | undefined> {
  const row = await trx.selectFrom('invoices').select('id').where('company_id', '=', companyId).where('number', '=', number).executeTakeFirst();
  return row?.id;
}

/** An invoice line's amount in SQL, as lineAmount (totals.ts) rounds it: to its invoice's (`i`) currency's minor unit. */
const LINE_AMOUNT = sql`round(li.quantity * li.unit_price, ${minorDigitsSql(sql`i.currency`, Intl.supportedValuesOf('currency'))})`;

/**
 * What is left to invoice of a fixed-fee project (the row `p`): its fee less the invoice lines
 * of kind Service attributed to it on invoices that are not voided (credits subtract), never
 * below 0. The uninvoiced report's rule 7, and what an import bills for the project's time.
 */
export const FIXED_FEE_BALANCE = sql<string>`greatest(p.fee - coalesce((
          select sum(case when li.effect = 'credit' then -1 else 1 end * ${LINE_AMOUNT})
          from invoice_line_items li
          join invoices i on i.company_id = li.company_id and i.id = li.invoice_id
          where li.company_id = p.company_id and li.project_id = p.id and i.state <> 'voided' and lower(li.kind) = 'service'
        ), 0), 0)`;

/**
 * Whether a fixed-fee project (the row `p`) is billable for work up to `to`: once that day reaches
 * its start date, or without one the day it was created in the workspace's zone. Rule 7's
 * eligibility, which the uninvoiced report and an import both apply.
 */
export const fixedFeeEligible = (to: string, timezone: string) =>
  sql<boolean>`${to}::date >= coalesce(p.starts_on, (p.created_at at time zone ${timezone}::text)::date)`;

/**
 * Locks the fixed-fee projects among `projectIds` and returns the balance (FIXED_FEE_BALANCE) of
 * each that is eligible for work up to `to` (fixedFeeEligible), and those that are not yet:
 * two imports of one project's time wait for each other, so its balance is billed once. Taken
 * before the entries' locks (as a project's delete takes them), and FOR NO KEY UPDATE, so new
 * entries of the project (whose foreign key takes KEY SHARE) are not held up.
 */
export async function lockFixedFeeBalances(
  trx: Tx,
  companyId: string,
  projectIds: string[],
  eligibleBy: { to: string; timezone: string },
): Promise<{ balances: Map<string, string>; notYet: Set<string> }> {
  const none = { balances: new Map<string, string>(), notYet: new Set<string>() };
  if (!projectIds.length) return none;
  const locked = await sql<{ id: string }>`
    select p.id from projects p where p.company_id = ${companyId} and p.id = any(${`{${projectIds.join(',')}}`}::uuid[]) and p.is_fixed_fee
    order by p.id for no key update`.execute(trx);
  if (!locked.rows.length) return none;
  // A statement of its own after the lock: its snapshot sees the lines of an import that
  // committed while this one waited (a locking read's own subquery would not).
  const { rows } = await sql<{ id: string; balance: string; eligible: boolean }>`
    select p.id, ${FIXED_FEE_BALANCE} as balance, ${fixedFeeEligible(eligibleBy.to, eligibleBy.timezone)} as eligible from projects p
    where p.company_id = ${companyId} and p.id = any(${`{${locked.rows.map((r) => r.id).join(',')}}`}::uuid[])`.execute(trx);
  return {
    balances: new Map(rows.filter((r) => r.eligible).map((r) => [r.id, r.balance])),
    notYet: new Set(rows.filter((r) => !r.eligible).map((r) => r.id)),
  };
}
