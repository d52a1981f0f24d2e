import { Type, type Static } from '@sinclair/typebox';
import { Nullable, createBody, patchBody } from '../../../http/schemas.ts';

/**
 * The schemas of bank accounts: the web app's bodies and answer. The lengths here
 * are the outer bounds of the input (an IBAN may come with spaces); rules.ts checks
 * the values themselves and names the field of each refusal.
 */

const writable = {
  currency: Type.String({ minLength: 1, maxLength: 3, description: 'ISO 4217 code of the invoices that print this account.' }),
  holder: Type.String({ minLength: 1, maxLength: 70, description: 'The account holder, as the bank knows them (the SEPA beneficiary name: at most 70 characters).' }),
  iban: Nullable(Type.String({ maxLength: 64, description: 'IBAN, with or without spaces; stored in electronic format. This or local_account.' })),
  bic: Nullable(Type.String({ maxLength: 16, description: 'BIC (SWIFT code), 8 or 11 characters.' })),
  bank_name: Nullable(Type.String({ maxLength: 140 })),
  local_account: Nullable(
    Type.String({ maxLength: 500, description: 'Free-form local details (e.g. UK sort code and account number, US routing and account number), printed as written.' }),
  ),
  is_default: Type.Boolean({ description: 'The account invoices in its currency print; making one default ends the previous default of that currency.' }),
};

export const CreateBody = createBody(writable, ['currency', 'holder']);
export const PatchBody = patchBody(writable);

export type BankAccountCreate = Static<typeof CreateBody>;
export type BankAccountPatch = Static<typeof PatchBody>;

export const BankAccountSchema = Type.Object(
  {
    id: Type.String(),
    currency: Type.String(),
    holder: Type.String(),
    iban: Nullable(Type.String({ description: 'Electronic format (no spaces).' })),
    bic: Nullable(Type.String()),
    bank_name: Nullable(Type.String()),
    local_account: Nullable(Type.String()),
    is_default: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
