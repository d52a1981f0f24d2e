import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { Enum, Nullable } from '../../../http/schemas.ts';
import { getInvoice } from './service.ts';

/**
 * Who an e-mail about a client's invoice (or estimate) goes to first: the address
 * the client keeps for invoices (`clients.invoice_email`) when it has one, alone;
 * otherwise its contacts with an e-mail (last name, first name). The web app's send
 * dialogs fill their recipients with this list; the person may change it, and
 * the send itself takes whatever recipients it is given (the API's rule).
 */

export const SuggestedRecipientsSchema = Type.Object(
  {
    source: Enum(['invoice_email', 'contacts', 'none'], "Where the list comes from: the client's invoice e-mail address, its contacts, or nothing to offer."),
    recipients: Type.Array(Type.Object({ name: Nullable(Type.String()), email: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export interface SuggestedRecipients {
  source: 'invoice_email' | 'contacts' | 'none';
  recipients: Array<{ name: string | null; email: string }>;
}

/** The list for a client of the workspace (the caller checked the client is in reach: it is the record's). */
export async function recipientsForClient(trx: Tx, companyId: string, clientId: string): Promise<SuggestedRecipients> {
  const client = await trx
    .selectFrom('clients')
    .select(['name', 'invoice_email'])
    .where('company_id', '=', companyId)
    .where('id', '=', clientId)
    .executeTakeFirst();
  const invoiceEmail = client?.invoice_email?.trim();
  if (client && invoiceEmail) return { source: 'invoice_email', recipients: [{ name: client.name, email: invoiceEmail }] };
  const contacts = await trx
    .selectFrom('contacts')
    .select(['first_name', 'last_name', 'email'])
    .where('company_id', '=', companyId)
    .where('client_id', '=', clientId)
    .where('email', 'is not', null)
    .where('email', '<>', '')
    .orderBy('last_name')
    .orderBy('first_name')
    .orderBy('id')
    .execute();
  if (contacts.length === 0) return { source: 'none', recipients: [] };
  return {
    source: 'contacts',
    recipients: contacts.map((c) => ({ name: `${c.first_name} ${c.last_name}`.trim() || null, email: c.email! })),
  };
}

/** GET /web/api/invoices/:id/recipients: the list for the invoice's client (404 when the invoice is out of reach). */
export async function invoiceRecipients(db: Kysely<DB>, p: Principal, invoiceId: string): Promise<SuggestedRecipients> {
  const invoice = await getInvoice(db, p, invoiceId);
  return withTenant(db, p.companyId, (trx) => recipientsForClient(trx, p.companyId, invoice.client.id));
}
