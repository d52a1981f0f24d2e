import { sql, type InferResult } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import { isId } from '../../../ids.ts';

/** SQL of bank accounts; every function takes the workspace id first. */

export const COLUMNS = ['id', 'currency', 'holder', 'iban', 'bic', 'bank_name', 'local_account', 'is_default', 'created_at', 'updated_at'] as const;

const accountSelect = (trx: Tx, companyId: string) => trx.selectFrom('bank_accounts').select(COLUMNS).where('company_id', '=', companyId);

export type BankAccountRow = InferResult<ReturnType<typeof accountSelect>>[number];

/** A transaction-scoped lock of the workspace's bank accounts: two writes that move a default never interleave. */
const LOCK_CLASS = 0x53_42_41; // "SBA": Sheaf bank accounts

export async function lockAccounts(trx: Tx, companyId: string) {
  await sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${companyId}))`.execute(trx);
}

export async function findAccount(trx: Tx, companyId: string, id: string, { lock = false } = {}): Promise<BankAccountRow | undefined> {
  if (!isId(id)) return undefined;
  let query = accountSelect(trx, companyId).where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The accounts by currency, the default first, then oldest first. */
export function listAccounts(trx: Tx, companyId: string) {
  return accountSelect(trx, companyId).orderBy('currency').orderBy('is_default', 'desc').orderBy('created_at').orderBy('id').execute();
}

/** The account invoices in `currency` print: its default, if it has one. */
export function findDefault(trx: Tx, companyId: string, currency: string): Promise<BankAccountRow | undefined> {
  return accountSelect(trx, companyId).where('currency', '=', currency).where('is_default', '=', true).executeTakeFirst();
}

/** The oldest account in `currency` but `exceptId`: the one that becomes default when the default goes. */
export function findOldest(trx: Tx, companyId: string, currency: string, exceptId: string): Promise<BankAccountRow | undefined> {
  return accountSelect(trx, companyId).where('currency', '=', currency).where('id', '<>', exceptId).orderBy('created_at').orderBy('id').executeTakeFirst();
}

/** Ends the default of `currency` (but `exceptId`'s). */
export async function clearDefault(trx: Tx, companyId: string, currency: string, now: Date, exceptId?: string) {
  let query = trx
    .updateTable('bank_accounts')
    .set({ is_default: false, updated_at: now })
    .where('company_id', '=', companyId)
    .where('currency', '=', currency)
    .where('is_default', '=', true);
  if (exceptId) query = query.where('id', '<>', exceptId);
  await query.execute();
}
