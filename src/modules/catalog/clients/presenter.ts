import type { findVisibleClient } from './queries.ts';
import { decimalNumber } from '../../../money.ts';

/**
 * A client row as the queries load it: `own_currency` the stored one (null: follows the
 * workspace), `currency` the one in force, the client's own, else the workspace's.
 */
export type ClientRow = NonNullable<Awaited<ReturnType<typeof findVisibleClient>>>;

/** A record's client as the API names it: `{ id, name }` (contacts, projects, invoices, estimates, schedules). */
export const clientRef = (row: { client_id: string; client_name: string }) => ({ id: row.client_id, name: row.client_name });

/**
 * The client as the API shows it. `billing` (see rules.seesClientBilling) adds
 * the invoicing defaults; without it they are absent, not null.
 */
export function presentClient(row: ClientRow, { billing }: { billing: boolean }) {
  // Key order is the serializer's (required properties first, then optional ones), so
  // the ETag, a hash of this object's JSON, is a hash of the exact bytes sent.
  const base = {
    id: row.id,
    name: row.name,
    is_active: row.is_active,
    address: row.address,
    currency: row.currency,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  if (!billing) return base;
  // Object.assign, not a literal opening with a spread: Node.js 20 is slow at those, once per row (decisions: "Node.js 20's spreads").
  return Object.assign(base, {
    payment_terms: row.payment_terms,
    payment_days: row.payment_days,
    tax: decimalNumber(row.tax),
    tax2: decimalNumber(row.tax2),
    discount: decimalNumber(row.discount),
    language: row.language,
    vat_id: row.vat_id,
    invoice_email: row.invoice_email,
    street: row.street,
    postal_code: row.postal_code,
    city: row.city,
    country_code: row.country_code,
    buyer_reference: row.buyer_reference,
  });
}

export type PresentedClient = ReturnType<typeof presentClient>;
