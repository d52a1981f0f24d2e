import { auditActor } from '../../../access/operator.ts';
import { mayCloseInvoices } from '../../../access/invoices.ts';
import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { minorUnitDigits } from '../../../money.ts';
import { isWorkDate } from '../../../time/workspace-time.ts';
import { audit } from '../../workspace/audit/index.ts';
import { deletePaymentRow, insertPayment, overdrawnRetainers, paymentsOf, touchInvoice } from './queries.ts';
import { invoiceTotals, presentPayment, type PresentedInvoice, type PresentedPayment } from './presenter.ts';
import { assertMayUseInvoices, loadInvoice, paidAtOf } from './service.ts';
import type { PaymentInput } from './schemas.ts';
import { wrongState } from './rules.ts';

/**
 * The invoice, locked, as it is once the lock is ours. The locking statement waits for
 * another payment's transaction and then re-reads the invoice row, but under READ
 * COMMITTED its subquery (the sum of the payments) keeps the snapshot from before the
 * wait: a payment deleted or added meanwhile would be missed. A second statement sees it.
 */
async function lockedInvoice(trx: Tx, companyId: string, invoiceId: string) {
  await loadInvoice(trx, companyId, invoiceId, { lock: true });
  return loadInvoice(trx, companyId, invoiceId);
}

/**
 * A payment recorded by an administrator in the web app (issue 16 item 6; the
 * API records none). Like `sheaf admin invoice mark-paid`, but any amount up to
 * what is due: partial payments add up, and the one that brings the amount due
 * to zero marks the invoice paid. Only open invoices take payments; more than
 * is due is refused rather than stored as a credit nobody can see.
 */
export async function recordPayment(db: Kysely<DB>, p: Principal, invoiceId: string, input: PaymentInput, now: Date): Promise<PresentedInvoice> {
  if (!mayCloseInvoices(p)) throw forbidden('Only owners and administrators may record payments.');
  const { companyId } = p;
  return withTenant(db, companyId, async (trx) => {
    const { row, lines } = await lockedInvoice(trx, companyId, invoiceId);
    if (row.state !== 'open') {
      const hint = row.state === 'draft' ? ' Send it first.' : '';
      throw wrongState(`Payments are recorded on open invoices; this one is ${row.state}.${hint}`, row.state);
    }
    if (!isWorkDate(input.paid_date)) throw badRequest('paid_date must be a date (YYYY-MM-DD).', { field: 'paid_date' });
    // The JSON number as written (its shortest decimal form), so its decimal places are the ones sent.
    const amount = new Decimal(String(input.amount));
    const digits = minorUnitDigits(row.currency);
    if (!amount.gt(0) || amount.decimalPlaces() > digits) {
      throw badRequest(`amount must be more than 0, with at most ${digits} decimal places in ${row.currency}.`, { field: 'amount' });
    }
    const due = invoiceTotals(row, lines).dueAmount; // exact, never through a JSON number
    if (amount.gt(due)) throw badRequest(`amount is more than the ${due.toFixed(digits)} ${row.currency} due.`, { field: 'amount' });
    await insertPayment(trx, companyId, row.id, { amount: amount.toFixed(), paid_date: input.paid_date, method: input.method ?? null, notes: input.notes ?? null, now });
    const paidInFull = amount.eq(due);
    await touchInvoice(trx, companyId, row.id, paidInFull ? { state: 'paid', paid_at: await paidAtOf(trx, companyId, row.id, now) } : {}, now);
    await audit(trx, {
      ...auditActor(p),
      action: paidInFull ? 'invoice.paid' : 'invoice.payment_recorded',
      subjectType: 'invoice',
      subjectId: row.id,
      details: { payment: amount.toFixed(), paid_date: input.paid_date },
    });
    return (await loadInvoice(trx, companyId, row.id)).body;
  });
}

/** The payments recorded on an invoice the caller may read (404 otherwise), oldest first. */
export async function listPayments(db: Kysely<DB>, p: Principal, invoiceId: string): Promise<PresentedPayment[]> {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => {
    const { row } = await loadInvoice(trx, p.companyId, invoiceId, { visibleTo: p });
    return (await paymentsOf(trx, p.companyId, row.id)).map(presentPayment);
  });
}

/**
 * Deletes a wrongly recorded payment (issue 25 item 5): owners and administrators,
 * on an open or paid invoice (a closed or voided one is settled; a draft has none).
 * A paid invoice whose amount due is more than 0 again goes back to open. The
 * invoice row is locked as recordPayment locks it, so two deletes, or a delete and
 * a new payment, run one after the other and each sees the other's result: the
 * second delete of one payment is 404, and the state always follows the payments.
 */
export async function deletePayment(db: Kysely<DB>, p: Principal, invoiceId: string, paymentId: string, now: Date): Promise<PresentedInvoice> {
  if (!mayCloseInvoices(p)) throw forbidden('Only owners and administrators may delete payments.');
  const { companyId } = p;
  return withTenant(db, companyId, async (trx) => {
    const { row } = await lockedInvoice(trx, companyId, invoiceId);
    if (row.state !== 'open' && row.state !== 'paid') {
      throw wrongState(`Payments are deleted on open or paid invoices; this one is ${row.state}.`, row.state);
    }
    const deleted = isId(paymentId) ? await deletePaymentRow(trx, companyId, row.id, paymentId) : undefined;
    if (!deleted) throw notFound('payment');
    const after = await loadInvoice(trx, companyId, row.id);
    const reopened = row.state === 'paid' && invoiceTotals(after.row, after.lines).dueAmount.gt(0);
    await touchInvoice(trx, companyId, row.id, reopened ? { state: 'open', paid_at: null } : {}, now);
    if (reopened) {
      // A paid retainer invoice's funds leave its retainer: refused when later invoices have drawn them.
      const overdrawn = await overdrawnRetainers(trx, companyId, row.id);
      if (overdrawn.length > 0) {
        throw conflict(
          `This payment funds the retainer "${overdrawn[0].name}", and later invoices have drawn on those funds; remove their retainer credits (or void those invoices) first.`,
          { state: row.state },
        );
      }
    }
    await audit(trx, {
      ...auditActor(p),
      action: 'invoice.payment_deleted',
      subjectType: 'invoice',
      subjectId: row.id,
      details: { payment: new Decimal(deleted.amount).toFixed(), paid_date: deleted.paid_date, method: deleted.method, reopened },
    });
    return (await loadInvoice(trx, companyId, row.id)).body;
  });
}
