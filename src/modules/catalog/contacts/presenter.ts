import { clientRef } from '../clients/index.ts';
import type { findContact } from './queries.ts';

/** A contact row with its client's id and name, as the queries load it. */
export type ContactRow = NonNullable<Awaited<ReturnType<typeof findContact>>>;

/** The contact as the API shows it; `last_name` is an empty string when none was given. */
export function presentContact(row: ContactRow) {
  return {
    id: row.id,
    client: clientRef(row),
    first_name: row.first_name,
    last_name: row.last_name,
    title: row.title,
    email: row.email,
    phone_office: row.phone_office,
    phone_mobile: row.phone_mobile,
    fax: row.fax,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
