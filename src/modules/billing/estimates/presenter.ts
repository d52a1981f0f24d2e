import { createHash } from 'node:crypto';
import type { Decimal } from 'decimal.js';
import { computeTotals, creatorOf, documentHead, presentTotals, type Totals } from '../invoices/index.ts';
import type { EstimateLineRow, EstimateRow } from './queries.ts';

/** The estimate as the web app shows it; totals through the invoices' arithmetic (one place for it). */

const num = (d: Decimal) => Number(d.toFixed());

export function estimateTotals(row: Pick<EstimateRow, 'tax' | 'tax2' | 'discount' | 'currency'>, lines: Array<Pick<EstimateLineRow, 'quantity' | 'unit_price' | 'taxed' | 'taxed2'>>): Totals {
  return computeTotals(
    lines.map((l) => ({ quantity: l.quantity, unit_price: l.unit_price, effect: 'charge' as const, taxed: l.taxed, taxed2: l.taxed2 })),
    { tax: row.tax, tax2: row.tax2, discount: row.discount },
    row.currency,
  );
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentEstimate(row: EstimateRow, lines: EstimateLineRow[]) {
  const totals = estimateTotals(row, lines);
  // Object.assign, not a literal opening with a spread: Node.js 20 is slow at those, once per row (decisions: "Node.js 20's spreads").
  return Object.assign(
    documentHead(row),
    {
      issue_date: row.issue_date,
      valid_until: row.valid_until,
      currency: row.currency,
    },
    presentTotals(row, totals),
    {
      notes: row.notes,
      sent_at: iso(row.sent_at),
      accepted_at: iso(row.accepted_at),
      declined_at: iso(row.declined_at),
      answered_by_client: row.answered_by_client,
      decline_reason: row.decline_reason,
      invoice: row.converted_invoice_id && row.invoice_number !== null ? { id: row.converted_invoice_id, number: row.invoice_number } : null,
      creator: creatorOf(row),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      line_items: lines.map((l, i) => ({
        id: l.id,
        kind: l.kind,
        description: l.description,
        quantity: Number(l.quantity),
        unit_price: Number(l.unit_price),
        amount: num(totals.lineAmounts[i]),
        taxed: l.taxed,
        taxed2: l.taxed2,
        project_id: l.project_id,
        sort_order: l.sort_order,
      })),
    },
  );
}

export type PresentedEstimate = ReturnType<typeof presentEstimate>;

/**
 * What a client is shown of an estimate, as a short hash: its terms (lines, prices, taxes,
 * discount, totals, currency, dates, subject, notes), not its state or times. A client's
 * acceptance names it, so the sender's edit of a sent estimate is never accepted unseen.
 */
export function estimateVersion(e: PresentedEstimate): string {
  const terms = [e.number, e.subject, e.currency, e.issue_date, e.valid_until, e.notes, e.discount, e.tax, e.tax2, e.amount];
  const lines = e.line_items.map((l) => [l.kind, l.description, l.quantity, l.unit_price, l.amount, l.taxed, l.taxed2]);
  return createHash('sha256').update(JSON.stringify([terms, lines])).digest('base64url').slice(0, 22);
}
