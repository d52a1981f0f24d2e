import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import type { Tx } from '../../../db/tenant.ts';
import { fetchPage, type PageParams } from '../../../http/pagination.ts';
import { isId } from '../../../ids.ts';

export interface MemberFilter {
  isActive?: boolean;
  updatedSince?: Date;
  /** Only internal human memberships: no client memberships, no agent identities. */
  directoryOnly: boolean;
}

export function listMembers(trx: Tx, companyId: string, filter: MemberFilter, page: PageParams) {
  let query = trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.user_type',
      'm.role',
      'm.permissions',
      'm.is_contractor',
      'm.is_active',
      'm.created_at',
      sql<Date>`greatest(m.updated_at, u.updated_at)`.as('updated_at'),
    ])
    .where('m.company_id', '=', companyId);
  if (filter.directoryOnly) query = query.where('m.role', '<>', 'client').where('u.user_type', '=', 'human');
  if (filter.isActive !== undefined) query = query.where('m.is_active', '=', filter.isActive);
  if (filter.updatedSince) query = query.where(sql<Date>`greatest(m.updated_at, u.updated_at)`, '>=', filter.updatedSince);
  return fetchPage(query.orderBy('u.last_name').orderBy('u.first_name').orderBy('u.id'), page);
}

/** A membership of the workspace (role and state), or undefined, as for a malformed id. */
export async function findMembership(trx: Tx, companyId: string, userId: string) {
  if (!isId(userId)) return undefined;
  return trx
    .selectFrom('memberships')
    .select(['user_id', 'role', 'is_active'])
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/**
 * The workspace's active members who are people (agent identities are not), membership `m` with
 * its user `u`, for the caller to select from: who may own or join a project, who is told of a
 * submission to approve.
 */
export function activeHumanMembers(trx: Tx, companyId: string) {
  return trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.company_id', '=', companyId)
    .where('m.is_active', '=', true)
    .where('u.user_type', '=', 'human');
}

/** A membership with its person, as listMembers reads it. */
export type MemberRow = Awaited<ReturnType<typeof listMembers>>['rows'][number];

/** Every membership of a workspace with the person's identity (all columns), by last name, first name, id. */
export function membershipsOf(db: Kysely<DB>, companyId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .select(['u.email', 'u.first_name', 'u.last_name', 'u.user_type'])
    .where('m.company_id', '=', companyId)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('u.id')
    .execute();
}
