import type { BankAccountRow } from './queries.ts';

/** An account as the web app and the command line show it. */
export function presentBankAccount(row: BankAccountRow) {
  return {
    id: row.id,
    currency: row.currency,
    holder: row.holder,
    iban: row.iban,
    bic: row.bic,
    bank_name: row.bank_name,
    local_account: row.local_account,
    is_default: row.is_default,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PresentedBankAccount = ReturnType<typeof presentBankAccount>;
