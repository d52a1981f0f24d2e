import { decimalNumber } from '../../../money.ts';
import { clientRef } from '../../catalog/clients/index.ts';
import { Decimal } from 'decimal.js';
import { computeTotals, printedSubtotal, type Totals } from './totals.ts';
import type { InvoiceRow, LineRow, PaymentRow } from './queries.ts';
import type { messageSelect } from './messages.ts';

/**
 * The invoice as the API shows it. Money and quantities are exact decimals in
 * the database and JSON numbers here; totals come from computeTotals (the one
 * place of invoice arithmetic). Key order is the response schema's, so the ETag
 * (a hash of this object's JSON) is a hash of the bytes sent.
 */

const num = (d: Decimal) => Number(d.toFixed());

export function invoiceTotals(row: Pick<InvoiceRow, 'tax' | 'tax2' | 'discount' | 'tax_base_rounded' | 'currency' | 'paid_total'>, lines: LineRow[]): Totals {
  return computeTotals(
    lines.map((l) => ({ quantity: l.quantity, unit_price: l.unit_price, effect: l.effect, taxed: l.taxed, taxed2: l.taxed2, retainer: l.retainer_id !== null })),
    { tax: row.tax, tax2: row.tax2, discount: row.discount, roundedTaxBase: row.tax_base_rounded },
    row.currency,
    row.paid_total,
  );
}

/**
 * The totals as documents print them (pdf.ts totalsRows), for the pages that show them beside the
 * PDF (the client's page, the invoice page): the subtotal of every line but the credits drawing
 * on a retainer, and those credits (positive; 0: none), which follow the taxes.
 */
export function printedTotals(row: Pick<InvoiceRow, 'tax' | 'tax2' | 'discount' | 'tax_base_rounded' | 'currency' | 'paid_total'>, lines: LineRow[]) {
  const totals = invoiceTotals(row, lines);
  return { subtotal: num(printedSubtotal(totals)), retainer_credit: num(totals.retainerCredit) };
}

export function presentLine(line: LineRow, amount: Decimal) {
  return {
    id: line.id,
    kind: line.kind,
    description: line.description,
    quantity: Number(line.quantity),
    unit_price: Number(line.unit_price),
    amount: num(amount),
    effect: line.effect,
    taxed: line.taxed,
    taxed2: line.taxed2,
    project_id: line.project_id,
    sort_order: line.sort_order,
  };
}

/**
 * The totals an invoice and an estimate show alike, in this order (their schemas' order, which
 * the ETag hashes): an invoice or estimate without a discount or tax shows 0, not null.
 */
export const presentTotals = (row: { discount: string | null; tax: string | null; tax2: string | null }, totals: Totals) => ({
  subtotal: num(totals.subtotal),
  discount: decimalNumber(row.discount) ?? 0,
  discount_amount: num(totals.discountAmount),
  tax: decimalNumber(row.tax) ?? 0,
  tax_amount: num(totals.taxAmount),
  tax2: decimalNumber(row.tax2) ?? 0,
  tax2_amount: num(totals.tax2Amount),
  amount: num(totals.amount),
});

export const personName = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim();

/** Who created an invoice or estimate: null when nobody is recorded or the person's row is not there. */
export const creatorOf = (row: { created_by: string | null; creator_first_name: string | null; creator_last_name: string | null }) =>
  row.created_by && row.creator_first_name !== null ? { id: row.created_by, name: personName(row.creator_first_name, row.creator_last_name) } : null;

/** The fields an invoice and an estimate begin with, in this order (their ETags hash the bodies). */
export function documentHead<R extends { id: string; client_id: string; client_name: string; number: unknown; state: unknown; subject: unknown }>(row: R) {
  return { id: row.id, client: clientRef(row), number: row.number as R['number'], state: row.state as R['state'], subject: row.subject as R['subject'] };
}

/**
 * What the invoice asks the client to pay: its amount less what was paid, and nothing once it is
 * voided (cancelled: a voided invoice's document and `due_amount` must never read as a bill).
 * A closed one was written off and still says what was not paid.
 */
export const askedFor = (row: Pick<InvoiceRow, 'state'>, totals: Pick<Totals, 'dueAmount'>): Decimal =>
  row.state === 'voided' ? new Decimal(0) : totals.dueAmount;

export function presentInvoice(row: InvoiceRow, lines: LineRow[]) {
  const totals = invoiceTotals(row, lines);
  // Object.assign, not a literal opening with a spread: Node.js 20 is slow at those, once per row (decisions: "Node.js 20's spreads").
  return Object.assign(
    documentHead(row),
    {
      purchase_order: row.purchase_order,
      issue_date: row.issue_date,
      due_date: row.due_date,
      payment_term: row.payment_term,
      currency: row.currency,
    },
    presentTotals(row, totals),
    {
      paid_amount: Number(row.paid_total),
      due_amount: num(askedFor(row, totals)),
      notes: row.notes,
      period_start: row.period_start,
      period_end: row.period_end,
      service_period_start: row.service_period_start,
      service_period_end: row.service_period_end,
      sent_at: row.sent_at?.toISOString() ?? null,
      paid_at: row.paid_at?.toISOString() ?? null,
      creator: creatorOf(row),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      line_items: lines.map((l, i) => presentLine(l, totals.lineAmounts[i])),
    },
  );
}

export type PresentedInvoice = ReturnType<typeof presentInvoice>;

/** An invoice message with its sender and the delivery state of its e-mail in the outbox (null: none yet). */
export type MessageRow = NonNullable<Awaited<ReturnType<ReturnType<typeof messageSelect>['executeTakeFirst']>>>;

const address = (a: { email: string; name?: string | null }) => ({ email: a.email, name: a.name ?? null });

export function presentMessage(row: MessageRow) {
  return {
    id: row.id,
    invoice_id: row.invoice_id,
    event_type: row.event_type,
    recipients: row.recipients.map(address),
    cc_recipients: row.cc_recipients.map(address),
    subject: row.subject,
    body: row.body,
    attach_pdf: row.attach_pdf,
    attach_e_invoice: row.attach_e_invoice,
    attach_expense_receipts: row.attach_expense_receipts,
    send_me_a_copy: row.send_me_a_copy,
    attachments: row.attachments.map((a) => ({ id: a.id, file_name: a.file_name })),
    sent_by:
      row.sent_by && row.sender_email !== null
        ? { id: row.sent_by, name: personName(row.sender_first_name, row.sender_last_name), email: row.sender_email }
        : null,
    delivery_status: row.delivery_status ?? 'pending',
    delivery_attempts: row.delivery_attempts ?? 0,
    delivered_at: row.delivered_at?.toISOString() ?? null,
    delivery_error: row.delivery_error,
    created_at: row.created_at.toISOString(),
  };
}

export type PresentedMessage = ReturnType<typeof presentMessage>;

/** A recorded payment (the web app's list); the amount as a JSON number, as the invoice's amounts are. */
export function presentPayment(row: PaymentRow) {
  return {
    id: row.id,
    invoice_id: row.invoice_id,
    amount: Number(row.amount),
    paid_date: row.paid_date,
    method: row.method,
    notes: row.notes,
    created_at: row.created_at.toISOString(),
  };
}

export type PresentedPayment = ReturnType<typeof presentPayment>;
