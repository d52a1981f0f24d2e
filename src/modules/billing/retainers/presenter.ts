import { Decimal } from 'decimal.js';
import type { EntryRow, RetainerRow } from './queries.ts';
import { entryCounts, entryPending, type EntryKind } from './rules.ts';

/** A retainer as the web app shows it: amounts as JSON numbers from exact decimals (as invoices do). */

const num = (s: string) => Number(new Decimal(s).toFixed());

export function presentEntry(e: EntryRow) {
  const kind: EntryKind = e.effect === 'credit' ? 'credit' : 'funding';
  return {
    id: e.id,
    kind,
    description: e.description,
    amount: num(e.amount),
    counts: entryCounts(kind, e.state),
    pending: entryPending(kind, e.state),
    invoice: { id: e.invoice_id, number: e.number, state: e.state, issue_date: e.issue_date },
  };
}

export function presentRetainer(row: RetainerRow) {
  return {
    id: row.id,
    client: { id: row.client_id, name: row.client_name },
    name: row.name,
    description: row.description,
    currency: row.currency,
    balance: num(row.balance),
    pending: num(row.pending),
    archived_at: row.archived_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const presentRetainerWithEntries = (row: RetainerRow, entries: EntryRow[]) => ({ ...presentRetainer(row), entries: entries.map(presentEntry) });

export type PresentedRetainer = ReturnType<typeof presentRetainer>;
export type PresentedRetainerWithEntries = ReturnType<typeof presentRetainerWithEntries>;
