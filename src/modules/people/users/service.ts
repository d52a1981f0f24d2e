import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { seesFullUserRecords } from '../../../access/policy.ts';
import type { Principal } from '../../../auth/principal.ts';
import { withTenant } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { ApiError } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { directoryItem, memberItem } from './presenter.ts';
import { listMembers } from './queries.ts';
import type { UsersQuery } from './schemas.ts';

/**
 * GET /api/v2/users: owners, administrators and managers get every membership in full;
 * personal sync keys and other members the directory (internal human memberships, six fields).
 * A personal sync key may not filter by `updated_since`.
 */
export async function listUsers(db: Kysely<DB>, p: Principal, query: Static<typeof UsersQuery>, page: PageParams) {
  if (p.kind === 'personal' && query.updated_since !== undefined) {
    throw new ApiError('unknown_field', "A personal sync key cannot use the query parameter 'updated_since'.", {
      field: 'updated_since',
    });
  }
  const full = seesFullUserRecords(p);
  const { rows, total } = await withTenant(db, p.companyId, (trx) =>
    listMembers(
      trx,
      p.companyId,
      {
        isActive: query.is_active === undefined ? undefined : query.is_active === 'true',
        updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
        directoryOnly: !full,
      },
      page,
    ),
  );
  return { users: rows.map(full ? memberItem : directoryItem), total };
}
