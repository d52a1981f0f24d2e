import { electronicFormatIBAN, friendlyFormatIBAN, validateBIC, validateIBAN, ValidationErrorsIBAN } from 'ibantools';
import { badRequest } from '../../../errors.ts';
import { isCurrencyCode } from '../../../money.ts';
import type { BankAccountPatch } from './schemas.ts';

/**
 * Pure rules for bank accounts (issue 25 item 2): an ISO 4217 currency, a holder of
 * at most 70 characters (the SEPA beneficiary name's limit, so a payment code never
 * has to cut it), an IBAN checked by ibantools (country, length and format of the
 * country's BBAN, check digits), a BIC checked by ibantools, an optional bank name,
 * and a free-form local account; an IBAN or a local account, or both. Each refusal
 * is a 400 naming its field. No I/O.
 */

export const HOLDER_MAX = 70;
export const BANK_NAME_MAX = 140;
export const LOCAL_ACCOUNT_MAX = 500;

export const BANK_ACCOUNT_WRITABLE = ['currency', 'holder', 'iban', 'bic', 'bank_name', 'local_account', 'is_default'] as const;
export const BANK_ACCOUNT_READ_ONLY = ['id', 'created_at', 'updated_at'] as const;

/** The stored form of an account's writable details (is_default is the service's: it touches other rows). */
export interface BankAccountState {
  currency: string;
  holder: string;
  iban: string | null;
  bic: string | null;
  bank_name: string | null;
  local_account: string | null;
}

export type BankAccountInput = BankAccountPatch;

export const NEW_ACCOUNT: BankAccountState = { currency: '', holder: '', iban: null, bic: null, bank_name: null, local_account: null };

const IBAN_PROBLEMS: Partial<Record<ValidationErrorsIBAN, string>> = {
  [ValidationErrorsIBAN.NoIBANCountry]: 'does not start with a known country code',
  [ValidationErrorsIBAN.WrongBBANLength]: 'has the wrong length for its country',
  [ValidationErrorsIBAN.WrongBBANFormat]: 'does not have its country’s format',
  [ValidationErrorsIBAN.ChecksumNotNumber]: 'has check digits that are not digits',
  [ValidationErrorsIBAN.WrongIBANChecksum]: 'has wrong check digits (a typo?)',
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum]: 'has a wrong national check digit (a typo?)',
};

/** An IBAN as typed (spaces, hyphens, lower case allowed) in electronic format, or a 400 naming `iban` with what is wrong. */
export function parseIban(value: string): string {
  const iban = electronicFormatIBAN(value.replace(/-/g, '')) ?? '';
  if (!iban) throw badRequest('iban is empty; give an IBAN, or null with a local_account.', { field: 'iban' });
  const { valid, errorCodes } = validateIBAN(iban);
  if (!valid) {
    const why = errorCodes.map((c) => IBAN_PROBLEMS[c]).filter(Boolean)[0] ?? 'is not valid';
    throw badRequest(`iban ${why}: ${friendlyFormatIBAN(iban) ?? iban}.`, { field: 'iban' });
  }
  return iban;
}

/** A BIC (8 or 11 characters, spaces ignored) in upper case, or a 400 naming `bic`. */
export function parseBic(value: string): string {
  const bic = value.replace(/\s+/g, '').toUpperCase();
  if (!validateBIC(bic).valid) throw badRequest(`bic must be a BIC of 8 or 11 letters and digits with a country code, not '${value.trim()}'.`, { field: 'bic' });
  return bic;
}

/** The IBAN as people read it: groups of four ("DE89 3704 0044 0532 0130 00"). */
export const groupedIban = (iban: string) => friendlyFormatIBAN(iban) ?? iban;

const NUL = (field: string) => badRequest(`${field} cannot contain the NUL character.`, { field });

/** Optional text: trimmed, blank is null, at most `max` characters. */
function optionalText(field: string, value: string | null, max: number): string | null {
  if (value === null) return null;
  const text = value.trim();
  if (text.includes('\u0000')) throw NUL(field);
  if (text.length > max) throw badRequest(`${field} must be at most ${max} characters.`, { field });
  return text === '' ? null : text;
}

/**
 * Applies a create or update body to the current details and returns the next
 * ones, each value normalised (currency upper case, IBAN electronic, BIC upper
 * case, texts trimmed, blanks null); then the account must have an IBAN or a
 * local account.
 */
export function applyBankAccountInput(current: BankAccountState, input: BankAccountInput): BankAccountState {
  const next = { ...current };
  if (input.currency !== undefined) {
    const code = input.currency.trim().toUpperCase();
    if (!isCurrencyCode(code)) throw badRequest(`currency must be an ISO 4217 code such as EUR, not '${input.currency}'.`, { field: 'currency' });
    next.currency = code;
  }
  if (input.holder !== undefined) {
    const holder = input.holder.trim().replace(/\s+/g, ' ');
    if (!holder || holder.length > HOLDER_MAX) throw badRequest(`holder must be 1 to ${HOLDER_MAX} characters, not blank.`, { field: 'holder' });
    if (holder.includes('\u0000')) throw NUL('holder');
    next.holder = holder;
  }
  if (input.iban !== undefined) next.iban = input.iban === null || input.iban.trim() === '' ? null : parseIban(input.iban);
  if (input.bic !== undefined) next.bic = input.bic === null || input.bic.trim() === '' ? null : parseBic(input.bic);
  if (input.bank_name !== undefined) next.bank_name = optionalText('bank_name', input.bank_name, BANK_NAME_MAX);
  if (input.local_account !== undefined) next.local_account = optionalText('local_account', input.local_account, LOCAL_ACCOUNT_MAX);
  if (next.iban === null && next.local_account === null) {
    const field = input.iban !== undefined || input.local_account === undefined ? 'iban' : 'local_account';
    throw badRequest('An account needs an iban or a local_account (such as a sort code and account number).', { field });
  }
  return next;
}

/** The details whose value differs (an unchanged PATCH writes nothing). */
export function changedColumns(before: BankAccountState, after: BankAccountState): Partial<BankAccountState> {
  const out: Partial<BankAccountState> = {};
  for (const key of Object.keys(after) as (keyof BankAccountState)[]) {
    if (before[key] !== after[key]) (out as Record<string, unknown>)[key] = after[key];
  }
  return out;
}
