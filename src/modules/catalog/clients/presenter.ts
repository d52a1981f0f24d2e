import { decimalNumber } from '../../../money.ts';
import type { PaymentTerms } from '../../../db/types.ts';
import type { Language } from '../../../i18n/index.ts';

/** A client row as the queries load it: `currency` already resolved to the workspace's when unset. */
export interface ClientRow {
  id: string;
  name: string;
  is_active: boolean;
  address: string | null;
  /** The stored currency (null: follows the workspace). */
  own_currency: string | null;
  /** The currency in force: the client's own, else the workspace's. */
  currency: string;
  payment_terms: PaymentTerms | null;
  payment_days: number | null;
  tax: string | null;
  tax2: string | null;
  discount: string | null;
  language: Language;
  created_at: Date;
  updated_at: Date;
}


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
  return {
    ...base,
    payment_terms: row.payment_terms,
    payment_days: row.payment_days,
    tax: decimalNumber(row.tax),
    tax2: decimalNumber(row.tax2),
    discount: decimalNumber(row.discount),
    language: row.language,
  };
}

export type PresentedClient = ReturnType<typeof presentClient>;
