import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import type { Tx } from '../../../db/tenant.ts';
import type { ClientLinkSubject } from './rules.ts';

export interface NewClientLink {
  id: string;
  subject: ClientLinkSubject;
  tokenHash: Buffer;
  createdBy: string | null;
  now: Date;
}

export async function insertClientLink(trx: Tx, companyId: string, link: NewClientLink) {
  await trx
    .insertInto('client_links')
    .values({
      company_id: companyId,
      id: link.id,
      subject_type: link.subject.type,
      subject_id: link.subject.id,
      token_hash: link.tokenHash,
      created_by: link.createdBy,
      created_at: link.now,
    })
    .execute();
}

/** Revokes every working link of the record; returns how many. */
export async function revokeLinks(trx: Tx, companyId: string, subject: ClientLinkSubject, now: Date): Promise<number> {
  const result = await trx
    .updateTable('client_links')
    .set({ revoked_at: now })
    .where('company_id', '=', companyId)
    .where('subject_type', '=', subject.type)
    .where('subject_id', '=', subject.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** How many links of the record work, when the newest was made, and when the client last opened one. */
export async function linkSummary(trx: Tx, companyId: string, subject: ClientLinkSubject) {
  const row = await trx
    .selectFrom('client_links')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('revoked_at', 'is', null).as('active'),
      eb.fn.max('created_at').filterWhere('revoked_at', 'is', null).as('newest'),
      eb.fn.max('last_viewed_at').as('last_viewed_at'),
    ])
    .where('company_id', '=', companyId)
    .where('subject_type', '=', subject.type)
    .where('subject_id', '=', subject.id)
    .executeTakeFirstOrThrow();
  return { active: Number(row.active), newest: row.newest as Date | null, lastViewedAt: row.last_viewed_at as Date | null };
}

/**
 * The working link with this token hash, read as the service (the workspace is not
 * known before), and noted as viewed in the same statement.
 */
export async function openLink(db: Kysely<DB>, tokenHash: Buffer, now: Date) {
  return db
    .updateTable('client_links')
    .set({ last_viewed_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .returning(['company_id', 'id', 'subject_type', 'subject_id'])
    .executeTakeFirst();
}
