import type { Tx } from '../../../db/tenant.ts';
import { notFound } from '../../../errors.ts';
import { todayIn } from '../../../time/workspace-time.ts';

/**
 * Today's date in the workspace's time zone: the default effective date of a new
 * rate, and the day "the rate in force" is read for.
 */
export async function workspaceToday(trx: Tx, companyId: string, now: Date): Promise<string> {
  const company = await trx.selectFrom('companies').select('timezone').where('id', '=', companyId).executeTakeFirst();
  if (!company) throw notFound('workspace');
  return todayIn(company.timezone, now);
}
