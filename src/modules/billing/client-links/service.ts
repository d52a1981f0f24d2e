import type { Kysely } from 'kysely';
import { hashToken, newToken } from '../../../auth/sessions.ts';
import type { DB } from '../../../db/types.ts';
import type { Tx } from '../../../db/tenant.ts';
import { newId } from '../../../ids.ts';
import { insertClientLink, linkSummary, openLink, revokeLinks } from './queries.ts';
import { CLIENT_LINK_SUBJECTS, clientLinkUrl, isClientLinkToken, type ClientLinkSubject, type ClientLinkSubjectType } from './rules.ts';

const isSubjectType = (type: string): type is ClientLinkSubjectType => (CLIENT_LINK_SUBJECTS as readonly string[]).includes(type);

/**
 * Client links: made, summarised and revoked in the caller's tenant transaction
 * (the caller checks who may; these functions only keep the table). A link is
 * 256 random bits stored as their SHA-256, like sessions and invitations: the
 * URL is known only when it is made (an e-mail carries it, or the invoice page
 * shows it once), so each e-mail makes its own link, and revoking ends them all.
 */

export interface MadeLink {
  id: string;
  url: string;
}

/** Makes a new working link to the record and returns its URL (the only time the token exists outside the e-mail). */
export async function makeClientLink(
  trx: Tx,
  companyId: string,
  subject: ClientLinkSubject,
  { createdBy, baseUrl, now }: { createdBy: string | null; baseUrl: string; now: Date },
): Promise<MadeLink> {
  const token = newToken();
  const id = newId(now.getTime());
  await insertClientLink(trx, companyId, { id, subject, tokenHash: hashToken(token), createdBy, now });
  return { id, url: clientLinkUrl(baseUrl, token) };
}

/** Ends every link to the record at once; returns how many worked until now. */
export const revokeClientLinks = (trx: Tx, companyId: string, subject: ClientLinkSubject, now: Date) => revokeLinks(trx, companyId, subject, now);

/** What the invoice page says about the record's links (never a token: none is stored). */
export async function clientLinkSummary(trx: Tx, companyId: string, subject: ClientLinkSubject) {
  const s = await linkSummary(trx, companyId, subject);
  return { active_links: s.active, newest_link_at: s.newest?.toISOString() ?? null, last_viewed_at: s.lastViewedAt?.toISOString() ?? null };
}

export interface OpenedLink {
  companyId: string;
  linkId: string;
  subject: { type: ClientLinkSubjectType; id: string };
}

/** The record a token shows, noting the visit; null for a malformed, unknown or revoked token (the caller says 404, nothing more). */
export async function openClientLink(db: Kysely<DB>, token: unknown, now: Date): Promise<OpenedLink | null> {
  if (!isClientLinkToken(token)) return null;
  const row = await openLink(db, hashToken(token), now);
  if (!row || !isSubjectType(row.subject_type)) return null;
  return { companyId: row.company_id, linkId: row.id, subject: { type: row.subject_type, id: row.subject_id } };
}
