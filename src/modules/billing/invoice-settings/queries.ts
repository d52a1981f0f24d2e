import type { Updateable } from 'kysely';
import type { InvoiceSettings } from '../../../db/types.ts';
import type { Tx } from '../../../db/tenant.ts';

/** Every query takes the workspace id first and filters on it (row-level security is the second wall). */

const COLUMNS = [
  'legal_name',
  'vat_id',
  'registration_number',
  'logo_file_id',
  'default_payment_term',
  'default_payment_days',
  'default_notes',
  'footer',
  'number_format',
  'next_number',
  'yearly_reset',
  'number_year',
  'street',
  'postal_code',
  'city',
  'country_code',
  'contact_name',
  'vat_exemption_reason',
  'updated_at',
] as const;

/** The workspace's settings row, or undefined when they were never saved; `lock` takes its row lock. */
export function findSettings(trx: Tx, companyId: string, { lock = false }: { lock?: boolean } = {}) {
  let query = trx.selectFrom('invoice_settings').select(COLUMNS).where('company_id', '=', companyId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export type SettingsRow = NonNullable<Awaited<ReturnType<typeof findSettings>>>;

/** Writes the changed columns, creating the row with the defaults for the rest the first time. */
export async function upsertSettings(trx: Tx, companyId: string, columns: Updateable<InvoiceSettings>, now: Date) {
  await trx
    .insertInto('invoice_settings')
    .values({ company_id: companyId, ...columns, updated_at: now })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ ...columns, updated_at: now }))
    .execute();
}

/** What the workspace settings hold that invoices print (their one source: companies, 0052). */
export function workspaceFacts(trx: Tx, companyId: string) {
  return trx
    .selectFrom('companies')
    .select(['name', 'address', 'tax_id', 'sender_email', 'sender_phone'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
}

export type WorkspaceFacts = Awaited<ReturnType<typeof workspaceFacts>>;

/** The logo's description (never its bytes). */
export function logoInfo(trx: Tx, companyId: string, fileId: string) {
  return trx
    .selectFrom('files')
    .select(['content_type', 'byte_size', 'filename', 'created_at'])
    .where('company_id', '=', companyId)
    .where('id', '=', fileId)
    .executeTakeFirst();
}
