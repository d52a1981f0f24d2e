import type { Kysely } from 'kysely';
import { isAdmin } from '../../../access/policy.ts';
import { memberPrincipal } from '../../../auth/authenticate.ts';
import type { DB } from '../../../db/types.ts';
import type { DisabledReason } from './rules.ts';

/**
 * An endpoint's payloads carry the view of the administrator who created it or last turned it
 * on (its holder), so that person must still be an active owner or administrator; the
 * operator's endpoints (no holder) always deliver. Otherwise the worker holds the deliveries
 * and turns the endpoint off at its next event (worker.ts), and the endpoint is shown as off
 * from the moment the role was lost (service.ts), not from that event.
 */
export async function holderProblem(db: Kysely<DB>, companyId: string, holder: string | null): Promise<DisabledReason | null> {
  if (holder === null) return null;
  const principal = await memberPrincipal(db, companyId, holder);
  return principal && isAdmin(principal) ? null : 'administrator_inactive';
}
