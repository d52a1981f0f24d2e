import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import { seesAllInvoices } from '../../../access/invoices.ts';
import { actingUserId, auditActor } from '../../../access/operator.ts';
import type { Principal } from '../../../auth/principal.ts';
import { insertRow } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { addRetainerLineIn, createInvoiceIn, currencyValue, findClient, invoiceTotals, loadInvoice, loadWorkspace, printedTotals, removeRetainerLineIn, wrongState } from '../invoices/index.ts';
import { presentRetainer, presentRetainerWithEntries, type PresentedRetainer, type PresentedRetainerWithEntries } from './presenter.ts';
import {
  creditsOfInvoice,
  findRetainer,
  findRetainerLine,
  listRetainerRows,
  lockRetainer,
  retainerEntries,
  touchRetainer,
  type RetainerFilter,
  type RetainerRow,
} from './queries.ts';
import { amountValue, assertDrawFits, retainerDescription, retainerName } from './rules.ts';
import type { CreditInput, FundInput, RetainerCreateInput, RetainerPatchInput } from './schemas.ts';

/**
 * Retainers: a client's prepaid funds (issue 25 item 8; docs/decisions.md "Retainers").
 *
 * - Funding: a retainer invoice, made by the invoices' own create (their rules,
 *   defaults and numbering) with one funding line linked to the retainer; its funds
 *   count once that invoice is paid in full, and no longer when a deleted payment
 *   takes it back to open.
 * - Drawing: a credit line linked to the retainer on a draft invoice of the same
 *   client and currency, at most the balance and at most the invoice's amount due.
 *   The retainer's row lock is held while the balance is read and the line written,
 *   so parallel draws run one after the other and never overdraw it. Voiding the
 *   invoice, deleting the draft or removing the line releases the credit.
 * - The balance is retainer_balance() (migration 0085), derived from the lines and
 *   their invoices' states in one query; nothing is cached.
 *
 * Who: a retainer's history spans every invoice of its client, so retainers are for
 * those who see every invoice (access/invoices.ts seesAllInvoices): owners,
 * administrators, managers with View invoices, and the operator. Anyone else: 403.
 * Another workspace's, unknown or malformed ids: 404.
 */

function assertMay(p: Principal) {
  if (!seesAllInvoices(p)) throw forbidden('Retainers are for owners, administrators and managers with the View invoices permission.');
}

async function loadRetainer(trx: Tx, companyId: string, id: string): Promise<RetainerRow> {
  const row = isId(id) ? await findRetainer(trx, companyId, id) : undefined;
  if (!row) throw notFound('retainer');
  return row;
}

async function withEntries(trx: Tx, companyId: string, row: RetainerRow): Promise<PresentedRetainerWithEntries> {
  return presentRetainerWithEntries(row, await retainerEntries(trx, companyId, [row.id]));
}

const fresh = async (trx: Tx, companyId: string, id: string) => withEntries(trx, companyId, await loadRetainer(trx, companyId, id));

// ---------------------------------------------------------------- read

export async function listRetainers(db: Kysely<DB>, p: Principal, filter: RetainerFilter = {}): Promise<PresentedRetainer[]> {
  assertMay(p);
  if (filter.clientId !== undefined && !isId(filter.clientId)) return [];
  return withTenant(db, p.companyId, async (trx) => (await listRetainerRows(trx, p.companyId, filter)).map(presentRetainer));
}

export async function getRetainer(db: Kysely<DB>, p: Principal, id: string): Promise<PresentedRetainerWithEntries> {
  assertMay(p);
  return withTenant(db, p.companyId, (trx) => fresh(trx, p.companyId, id));
}

// ---------------------------------------------------------------- create and change

export async function createRetainer(db: Kysely<DB>, p: Principal, input: RetainerCreateInput, now: Date): Promise<PresentedRetainerWithEntries> {
  assertMay(p);
  const name = retainerName(input.name);
  const description = retainerDescription(input.description);
  const currency = input.currency === undefined ? undefined : currencyValue(input.currency);
  return withTenant(db, p.companyId, async (trx) => {
    const client = isId(input.client_id) ? await findClient(trx, p.companyId, input.client_id, p) : undefined;
    if (!client) throw new ApiError('not_found', 'The client was not found.', { field: 'client_id' });
    if (!client.is_active) throw badRequest('The client is archived; restore it before giving it a retainer.', { field: 'client_id' });
    const workspace = await loadWorkspace(trx, p.companyId);
    if (!workspace) throw notFound('workspace');
    const id = newId(now.getTime());
    const values = { client_id: client.id, name, description, currency: currency ?? client.currency ?? workspace.currency, created_by: actingUserId(p) };
    await insertRow(trx, 'retainers', p.companyId, id, values, now);
    await audit(trx, { ...auditActor(p), action: 'retainer.created', subjectType: 'retainer', subjectId: id, details: { client_id: client.id, name, currency: values.currency } });
    return fresh(trx, p.companyId, id);
  });
}

/**
 * Name and description; `archived` true archives (only at a balance of 0 with no funding
 * awaiting payment, under the retainer's lock, so no draw slips in), false restores.
 */
export async function updateRetainer(db: Kysely<DB>, p: Principal, id: string, input: RetainerPatchInput, now: Date): Promise<PresentedRetainerWithEntries> {
  assertMay(p);
  const changes: { name?: string; description?: string | null; archived_at?: Date | null } = {};
  if (input.name !== undefined) changes.name = retainerName(input.name);
  if (input.description !== undefined) changes.description = retainerDescription(input.description);
  return withTenant(db, p.companyId, async (trx) => {
    if (!isId(id) || !(await lockRetainer(trx, p.companyId, id))) throw notFound('retainer');
    const row = await loadRetainer(trx, p.companyId, id);
    if (input.archived === true && row.archived_at === null) {
      if (!new Decimal(row.balance).isZero() || !new Decimal(row.pending).isZero()) {
        throw conflict('Only a retainer with a balance of 0 and no funding awaiting payment can be archived; draw or void what is left first.', { field: 'archived' });
      }
      changes.archived_at = now;
    }
    if (input.archived === false && row.archived_at !== null) changes.archived_at = null;
    if (changes.name === row.name) delete changes.name;
    if (changes.description === row.description) delete changes.description;
    if (Object.keys(changes).length === 0) return withEntries(trx, p.companyId, row);
    await touchRetainer(trx, p.companyId, row.id, changes, now);
    await audit(trx, { ...auditActor(p), action: 'retainer.updated', subjectType: 'retainer', subjectId: row.id, details: { changes } });
    return fresh(trx, p.companyId, row.id);
  });
}

function assertActive(row: RetainerRow) {
  if (row.archived_at !== null) throw conflict('The retainer is archived; restore it first.', { field: 'archived' });
}

// ---------------------------------------------------------------- fund

/**
 * A retainer invoice for `amount`: a draft invoice of the retainer's client in its
 * currency, made by the invoices' create (numbering, due date, notes as for any
 * invoice) with no tax and no discount, and its one funding line (untaxed). The funds
 * count once it is paid in full. One transaction: the invoice, its line and the audit
 * entry are written together or not at all.
 */
export async function fundRetainer(db: Kysely<DB>, p: Principal, id: string, input: FundInput, now: Date) {
  assertMay(p);
  return withTenant(db, p.companyId, async (trx) => {
    const row = await loadRetainer(trx, p.companyId, id);
    assertActive(row);
    const amount = amountValue(input.amount, row.currency);
    const created = await createInvoiceIn(
      trx,
      p,
      { client_id: row.client_id, currency: row.currency, subject: row.name, issue_date: input.issue_date, tax: 0, tax2: 0, discount: 0, line_items: [] },
      now,
    );
    await addRetainerLineIn(trx, p.companyId, created.id, { retainerId: row.id, effect: 'charge', amount, description: row.name }, now);
    await audit(trx, {
      ...auditActor(p),
      action: 'retainer.funding_invoiced',
      subjectType: 'retainer',
      subjectId: row.id,
      details: { invoice_id: created.id, invoice_number: created.number, amount },
    });
    return { retainer: await fresh(trx, p.companyId, row.id), invoice: { id: created.id, number: created.number } };
  });
}

// ---------------------------------------------------------------- draw

/**
 * A credit line drawing `amount` from the retainer onto a draft invoice of the same
 * client and currency. The retainer's row is locked first and its balance read after
 * the lock is held (a new statement sees every draw committed before it), then the
 * invoice is locked; more than the balance or than the invoice's amount due is a 400
 * naming `amount`, and nothing is written.
 */
export async function applyCredit(db: Kysely<DB>, p: Principal, id: string, input: CreditInput, now: Date) {
  assertMay(p);
  return withTenant(db, p.companyId, async (trx) => {
    if (!isId(id) || !(await lockRetainer(trx, p.companyId, id))) throw notFound('retainer');
    const row = await loadRetainer(trx, p.companyId, id);
    assertActive(row);
    const invoice = await loadInvoice(trx, p.companyId, input.invoice_id, { lock: true, visibleTo: p }).catch((err: unknown) => {
      if (err instanceof ApiError && err.code === 'not_found') throw new ApiError('not_found', 'The invoice was not found.', { field: 'invoice_id' });
      throw err;
    });
    if (invoice.row.state !== 'draft') {
      throw wrongState(`Retainer credits go on draft invoices; this one is ${invoice.row.state}.`, invoice.row.state, { field: 'invoice_id' });
    }
    if (invoice.row.client_id !== row.client_id) throw badRequest("invoice_id: the invoice is for another client than the retainer's.", { field: 'invoice_id' });
    if (invoice.row.currency !== row.currency) {
      throw badRequest(`invoice_id: the invoice is in ${invoice.row.currency}, the retainer in ${row.currency}.`, { field: 'invoice_id' });
    }
    if (invoice.lines.some((l) => l.retainer_id !== null && l.effect === 'charge')) {
      throw badRequest('invoice_id: a retainer invoice adds funds; it cannot draw on a retainer.', { field: 'invoice_id' });
    }
    const amount = amountValue(input.amount, row.currency);
    assertDrawFits(amount, row.balance, invoiceTotals(invoice.row, invoice.lines).dueAmount, row.currency);
    const before = new Set(invoice.lines.map((l) => l.id));
    const after = await addRetainerLineIn(trx, p.companyId, invoice.row.id, { retainerId: row.id, effect: 'credit', amount, description: row.name }, now);
    const lineId = after.line_items.find((l) => !before.has(l.id))!.id;
    await audit(trx, {
      ...auditActor(p),
      action: 'retainer.credit_applied',
      subjectType: 'retainer',
      subjectId: row.id,
      details: { invoice_id: invoice.row.id, invoice_number: invoice.row.number, line_id: lineId, amount },
    });
    return { retainer: await fresh(trx, p.companyId, row.id), invoice_id: invoice.row.id, line_id: lineId };
  });
}

/** Removes a credit line from a draft invoice (its funds return to the retainer). A sent invoice keeps it: void it instead (409). */
export async function removeCredit(db: Kysely<DB>, p: Principal, id: string, lineId: string, now: Date): Promise<PresentedRetainerWithEntries> {
  assertMay(p);
  return withTenant(db, p.companyId, async (trx) => {
    const row = await loadRetainer(trx, p.companyId, id);
    const line = isId(lineId) ? await findRetainerLine(trx, p.companyId, row.id, lineId) : undefined;
    if (!line || line.effect !== 'credit') throw notFound('retainer credit');
    const invoice = await loadInvoice(trx, p.companyId, line.invoice_id, { lock: true, visibleTo: p });
    if (invoice.row.state !== 'draft') {
      throw wrongState(`Credits are removed from draft invoices; this one is ${invoice.row.state}. Void the invoice to release its credit.`, invoice.row.state);
    }
    const removed = await removeRetainerLineIn(trx, p.companyId, invoice.row.id, line.id, now);
    if (!removed) throw notFound('retainer credit');
    await audit(trx, {
      ...auditActor(p),
      action: 'retainer.credit_removed',
      subjectType: 'retainer',
      subjectId: row.id,
      details: { invoice_id: invoice.row.id, invoice_number: invoice.row.number, line_id: line.id, amount: new Decimal(removed.line.unit_price).toFixed() },
    });
    return fresh(trx, p.companyId, row.id);
  });
}

/**
 * For an invoice's page: its retainer credits, and (a draft that is not itself a
 * retainer invoice) the active retainers of its client and currency holding funds.
 */
export async function invoiceRetainers(db: Kysely<DB>, p: Principal, invoiceId: string) {
  assertMay(p);
  return withTenant(db, p.companyId, async (trx) => {
    const { row, lines } = await loadInvoice(trx, p.companyId, invoiceId, { visibleTo: p });
    const credits = (await creditsOfInvoice(trx, p.companyId, row.id))
      .filter((c) => c.effect === 'credit')
      .map((c) => ({ line_id: c.id, retainer_id: c.retainer_id!, name: c.name, amount: Number(new Decimal(c.amount).toFixed()) }));
    const funding = lines.some((l) => l.retainer_id !== null && l.effect === 'charge');
    const available =
      row.state === 'draft' && !funding
        ? (await listRetainerRows(trx, p.companyId, { clientId: row.client_id, archived: false }))
            .filter((r) => r.currency === row.currency && new Decimal(r.balance).gt(0))
            .map(presentRetainer)
        : [];
    return { credits, available, printed: printedTotals(row, lines) };
  });
}
