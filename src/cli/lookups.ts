import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { ApiError } from '../errors.ts';
import { isId } from '../ids.ts';
import { getWorkspace } from '../modules/workspace/settings/index.ts';

/**
 * Look-ups the admin commands share once the database is open: the workspace
 * named by --workspace and a member named by id or e-mail, each a 404 (exit 3)
 * that says where to find the right one.
 */

export async function requireWorkspace(db: Kysely<DB>, id: string) {
  try {
    return await getWorkspace(db, id);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') {
      throw new ApiError('not_found', `No workspace with id ${id} (see "sheaf admin workspace list").`, { field: 'workspace' });
    }
    throw err;
  }
}

/** Accepts a user id or an e-mail address and returns the member's user id; `option` names the flag it came from. */
export async function resolveUser(db: Kysely<DB>, companyId: string, ref: string, option = 'user'): Promise<string> {
  const row = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.id')
    .where('m.company_id', '=', companyId)
    .where(isId(ref) ? 'u.id' : 'u.email', '=', ref.trim().toLowerCase())
    .executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No member '${ref}' in this workspace (see "sheaf admin user list").`, { field: option });
  return row.id;
}
