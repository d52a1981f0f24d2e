import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { auditActor } from '../../../access/operator.ts';
import { isAdmin } from '../../../access/policy.ts';
import { updateRow } from '../../../db/rows.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { forbidden, notFound } from '../../../errors.ts';
import { newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { clearDefault, COLUMNS, findAccount, findDefault, findOldest, listAccounts, lockAccounts, type BankAccountRow } from './queries.ts';
import { applyBankAccountInput, changedColumns, NEW_ACCOUNT, type BankAccountInput, type BankAccountState } from './rules.ts';

/**
 * A workspace's bank accounts, which its invoices print as payment details.
 *
 * Owners and administrators manage them (and the operator, through `sheaf admin
 * bank-account`): the account decides where clients send their money, so it takes
 * the role that records payments, closes and voids invoices, not the managers who
 * write and send invoices (they see the account on the PDF).
 *
 * Defaults: one per currency (unique index bank_accounts_default_key). The first
 * account of a currency becomes its default unless `is_default: false` is sent;
 * making another the default ends the previous one in the same transaction; deleting
 * the default makes the oldest remaining account of its currency the default, so
 * invoices keep printing payment details. Every write that moves a default holds the
 * workspace's bank-account lock first, so parallel requests queue instead of
 * colliding on the index.
 *
 * Accounts are deleted, not archived: invoices do not point at an account; their
 * PDF is rendered when asked for and prints the current default of its currency, so
 * a closed account never reappears on a re-sent invoice. The audit log keeps the
 * deleted account's details.
 */

export const mayManageBankAccounts = (p: Principal) => p.kind !== 'personal' && isAdmin(p);

function assertMayManage(p: Principal) {
  if (!mayManageBankAccounts(p)) throw forbidden('Only owners and administrators manage bank accounts.');
}

const stateOf = (row: BankAccountRow): BankAccountState => ({
  currency: row.currency,
  holder: row.holder,
  iban: row.iban,
  bic: row.bic,
  bank_name: row.bank_name,
  local_account: row.local_account,
});

const ACCOUNT = 'bank account';

export function listBankAccounts(db: Kysely<DB>, p: Principal): Promise<BankAccountRow[]> {
  assertMayManage(p);
  return withTenant(db, p.companyId, (trx) => listAccounts(trx, p.companyId));
}

export function getBankAccount(db: Kysely<DB>, p: Principal, id: string): Promise<BankAccountRow> {
  assertMayManage(p);
  return withTenant(db, p.companyId, async (trx) => {
    const row = await findAccount(trx, p.companyId, id);
    if (!row) throw notFound(ACCOUNT);
    return row;
  });
}

/** The account an invoice in `currency` prints, or none. Read by the invoice PDF, whose own access check has run. */
export const defaultBankAccount = (trx: Tx, companyId: string, currency: string) => findDefault(trx, companyId, currency);

export async function createBankAccount(db: Kysely<DB>, p: Principal, input: BankAccountInput, now: Date): Promise<BankAccountRow> {
  assertMayManage(p);
  const { companyId } = p;
  const state = applyBankAccountInput(NEW_ACCOUNT, input);
  const id = newId(now.getTime());
  return withTenant(db, companyId, async (trx) => {
    await lockAccounts(trx, companyId);
    const current = await findDefault(trx, companyId, state.currency);
    const isDefault = input.is_default ?? !current;
    if (isDefault && current) await clearDefault(trx, companyId, state.currency, now);
    const row = await trx
      .insertInto('bank_accounts')
      .values({ company_id: companyId, id, ...state, is_default: isDefault, created_at: now, updated_at: now })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    await audit(trx, { ...auditActor(p), action: 'bank_account.created', subjectType: 'bank_account', subjectId: id, details: { ...state, is_default: isDefault } });
    return row;
  });
}

/**
 * A change to one account (update, delete): the caller may manage accounts, the workspace's
 * bank-account lock is held (a default may move) and the account's row is locked; 404 when the
 * workspace has no such account.
 */
async function changeAccount<T>(db: Kysely<DB>, p: Principal, id: string, change: (trx: Tx, row: BankAccountRow) => Promise<T>): Promise<T> {
  assertMayManage(p);
  return withTenant(db, p.companyId, async (trx) => {
    await lockAccounts(trx, p.companyId);
    const row = await findAccount(trx, p.companyId, id, { lock: true });
    if (!row) throw notFound(ACCOUNT);
    return change(trx, row);
  });
}

/**
 * PATCH: the details given, checked on the merged state; `is_default: true` makes it
 * its currency's default, `false` leaves the currency without one. A new currency
 * takes the account out of its old currency's default, and into the new one's
 * when that has none (as a new account would), unless is_default says otherwise.
 */
export async function updateBankAccount(db: Kysely<DB>, p: Principal, id: string, input: BankAccountInput, now: Date): Promise<BankAccountRow> {
  const { companyId } = p;
  return changeAccount(db, p, id, async (trx, row) => {
    const before = stateOf(row);
    const changes: Partial<BankAccountState> & { is_default?: boolean } = changedColumns(before, applyBankAccountInput(before, input));
    const currency = changes.currency ?? row.currency;
    let isDefault = input.is_default ?? row.is_default;
    if (changes.currency !== undefined) {
      if (row.is_default) await promoteOldest(trx, companyId, row.currency, row.id, now);
      isDefault = input.is_default ?? !(await findDefault(trx, companyId, currency));
    }
    if (isDefault !== row.is_default || changes.currency !== undefined) changes.is_default = isDefault;
    if (Object.keys(changes).length === 0) return row;
    if (isDefault) await clearDefault(trx, companyId, currency, now, row.id);
    const updated = await trx
      .updateTable('bank_accounts')
      .set({ ...changes, updated_at: now })
      .where('company_id', '=', companyId)
      .where('id', '=', row.id)
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    const action = changes.is_default === true && Object.keys(changes).length === 1 ? 'bank_account.made_default' : 'bank_account.updated';
    await audit(trx, { ...auditActor(p), action, subjectType: 'bank_account', subjectId: row.id, details: { changes } });
    return updated;
  });
}

/** The oldest other account of `currency` becomes its default (when the default leaves the currency). */
async function promoteOldest(trx: Tx, companyId: string, currency: string, leavingId: string, now: Date) {
  const next = await findOldest(trx, companyId, currency, leavingId);
  if (!next) return;
  await clearDefault(trx, companyId, currency, now);
  await updateRow(trx, 'bank_accounts', companyId, next.id, { is_default: true }, now);
}

export async function deleteBankAccount(db: Kysely<DB>, p: Principal, id: string, now: Date): Promise<BankAccountRow> {
  const { companyId } = p;
  return changeAccount(db, p, id, async (trx, row) => {
    await trx.deleteFrom('bank_accounts').where('company_id', '=', companyId).where('id', '=', row.id).execute();
    if (row.is_default) await promoteOldest(trx, companyId, row.currency, row.id, now);
    await audit(trx, { ...auditActor(p), action: 'bank_account.deleted', subjectType: 'bank_account', subjectId: row.id, details: { ...stateOf(row), is_default: row.is_default } });
    return row;
  });
}
