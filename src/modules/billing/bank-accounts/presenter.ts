import type { BankAccountRow } from './queries.ts';

/** An account as the web app and the command line show it. */
export function presentBankAccount(row: BankAccountRow) {
  // The row holds exactly the columns shown (queries.ts COLUMNS); only the times need rendering.
  const { created_at, updated_at, ...details } = row;
  return { ...details, created_at: created_at.toISOString(), updated_at: updated_at.toISOString() };
}

export type PresentedBankAccount = ReturnType<typeof presentBankAccount>;
