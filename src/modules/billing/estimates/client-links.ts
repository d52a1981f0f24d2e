import type { Kysely } from 'kysely';
import { auditActor } from '../../../access/operator.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant } from '../../../db/tenant.ts';
import { audit } from '../../workspace/audit/index.ts';
import { clientLinkSummary, revokeClientLinks, type ClientLinkSubject } from '../client-links/index.ts';
import { recipientsForClient } from '../invoices/index.ts';
import { getEstimate } from './service.ts';

/**
 * The estimate page's view of its client links and the send dialog's first recipients (each send makes one, see
 * messages.ts): how many work and when the client last opened one, and revoking
 * them all, for whoever may see the estimate (404 otherwise). A revoked link is a
 * 404 from the next request on, for the page, the PDF and an answer alike.
 */

const subject = (id: string): ClientLinkSubject => ({ type: 'estimate', id });

export async function estimateLinks(db: Kysely<DB>, p: Principal, id: string) {
  const estimate = await getEstimate(db, p, id);
  return withTenant(db, p.companyId, (trx) => clientLinkSummary(trx, p.companyId, subject(estimate.id)));
}

export async function revokeEstimateLinks(db: Kysely<DB>, p: Principal, id: string, now: Date) {
  const estimate = await getEstimate(db, p, id);
  await withTenant(db, p.companyId, async (trx) => {
    const revoked = await revokeClientLinks(trx, p.companyId, subject(estimate.id), now);
    if (revoked > 0) {
      await audit(trx, { ...auditActor(p), action: 'estimate.client_links_revoked', subjectType: 'estimate', subjectId: estimate.id, details: { revoked } });
    }
  });
}

/** Who the estimate's e-mail goes to first (invoices' rule: the client's invoice e-mail address, else its contacts). */
export async function estimateRecipients(db: Kysely<DB>, p: Principal, id: string) {
  const estimate = await getEstimate(db, p, id);
  return withTenant(db, p.companyId, (trx) => recipientsForClient(trx, p.companyId, estimate.client.id));
}
