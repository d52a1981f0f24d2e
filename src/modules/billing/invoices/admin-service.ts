import type { Kysely } from 'kysely';
import type { DB, InvoiceState } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { conflict, notFound } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { audit } from '../../workspace/audit/service.ts';
import { findInvoice, insertPayment, linesOf, listInvoices, loadWorkspace, touchInvoice } from './queries.ts';
import { loadInvoice } from './service.ts';
import { invoiceTotals, presentInvoice, type PresentedInvoice } from './presenter.ts';

/**
 * The invoice states the API cannot reach (payments are not recorded through
 * it), for `sheaf admin invoice mark-paid|close|void`. They act with an
 * operator's rights; the audit entries have no actor user.
 *
 * - mark-paid: open → paid; records a payment of the amount due (dated --date,
 *   default today in the workspace zone), so `due_amount` becomes 0;
 * - close: open → closed (written off without full payment);
 * - void: open → voided (cancelled). A draft is deleted instead (DELETE
 *   /invoices/:id), which releases its time and expenses; a voided invoice keeps
 *   them billed, as the record of what was invoiced.
 */

export type AdminTransition = 'mark-paid' | 'close' | 'void';

const TRANSITIONS: Record<AdminTransition, { to: InvoiceState; action: string }> = {
  'mark-paid': { to: 'paid', action: 'invoice.paid' },
  close: { to: 'closed', action: 'invoice.closed' },
  void: { to: 'voided', action: 'invoice.voided' },
};

/** An invoice by id or by number. */
async function resolveInvoiceId(trx: Tx, companyId: string, ref: string): Promise<string> {
  if (isId(ref) && (await findInvoice(trx, companyId, ref))) return ref;
  const byNumber = await trx
    .selectFrom('invoices')
    .select('id')
    .where('company_id', '=', companyId)
    .where('number', '=', ref)
    .executeTakeFirst();
  if (!byNumber) throw notFound('invoice');
  return byNumber.id;
}

export async function transitionInvoiceForAdmin(
  db: Kysely<DB>,
  companyId: string,
  ref: string,
  transition: AdminTransition,
  { now, paidDate }: { now: Date; paidDate?: string },
): Promise<PresentedInvoice> {
  return withTenant(db, companyId, async (trx) => {
    const id = await resolveInvoiceId(trx, companyId, ref);
    return transitionIn(trx, companyId, id, transition, { now, paidDate });
  });
}

/**
 * Close or void from the web app (issue 16 item 6), by an owner or administrator:
 * the same transition as `sheaf admin invoice close|void` (one rule), by id only,
 * with the person as the audit actor. Idempotent: an invoice already in the target
 * state is returned unchanged (a repeated click is not an error); any other state
 * than open is the 409 the CLI gives.
 */
export async function closeOrVoidInvoice(
  db: Kysely<DB>,
  companyId: string,
  id: string,
  transition: 'close' | 'void',
  { now, actorId }: { now: Date; actorId: string },
): Promise<PresentedInvoice> {
  return withTenant(db, companyId, async (trx) => {
    if (!isId(id) || !(await findInvoice(trx, companyId, id))) throw notFound('invoice');
    return transitionIn(trx, companyId, id, transition, { now, actorId, repeatIsDone: true });
  });
}

async function transitionIn(
  trx: Tx,
  companyId: string,
  id: string,
  transition: AdminTransition,
  { now, paidDate, actorId, repeatIsDone = false }: { now: Date; paidDate?: string; actorId?: string; repeatIsDone?: boolean },
): Promise<PresentedInvoice> {
  const { to, action } = TRANSITIONS[transition];
  const { row, lines, body } = await loadInvoice(trx, companyId, id, { lock: true });
  if (repeatIsDone && row.state === to) return body;
  if (row.state !== 'open') {
    const hint = row.state === 'draft' ? ' Send it first, or delete the draft.' : '';
    throw conflict(`Only open invoices can be ${to === 'paid' ? 'marked paid' : to}; this one is ${row.state}.${hint}`, { state: row.state });
  }
  const changes: Record<string, unknown> = { state: to };
  let payment: string | null = null;
  if (transition === 'mark-paid') {
    const workspace = (await loadWorkspace(trx, companyId))!;
    const due = invoiceTotals(row, lines).dueAmount; // exact, never through a JSON number
    if (due.gt(0)) {
      payment = due.toFixed();
      await insertPayment(trx, companyId, row.id, {
        amount: payment,
        paid_date: paidDate ?? todayIn(workspace.timezone, now),
        notes: 'Recorded by sheaf admin invoice mark-paid',
        now,
      });
    }
    changes.paid_at = now;
  }
  await touchInvoice(trx, companyId, row.id, changes, now);
  await audit(trx, { companyId, actorUserId: actorId, action, subjectType: 'invoice', subjectId: row.id, details: { from_state: row.state, payment } });
  return (await loadInvoice(trx, companyId, row.id)).body;
}

/** Every invoice of a workspace, newest first (the operator's overview). */
export async function listInvoicesForAdmin(db: Kysely<DB>, companyId: string) {
  return withTenant(db, companyId, async (trx) => {
    const { rows } = await listInvoices(trx, companyId, {}, { page: 1, perPage: 2000 });
    const lines = await linesOf(trx, companyId, rows.map((r) => r.id));
    return rows.map((r) => presentInvoice(r, lines.filter((l) => l.invoice_id === r.id)));
  });
}
