import type { Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { pageEnvelope, pageParams, type PageParams } from '../../../http/pagination.ts';
import { activeFilter } from './rules.ts';
import type { AssignmentsQuery } from './schemas.ts';

/**
 * A project's assignments (of people or of tasks) as both list routes answer them: one page,
 * filtered by `is_active`, each row as the caller may see it (`present` with the list's view),
 * and the page's envelope. The route puts the items under its own name.
 */
export async function assignmentsPage<R, V, T>(
  request: FastifyRequest,
  query: Static<typeof AssignmentsQuery>,
  list: (filter: { isActive?: boolean }, page: PageParams) => Promise<{ rows: R[]; total: number; view: V }>,
  present: (row: R, view: V) => T,
) {
  const page = pageParams(query);
  const { rows, total, view } = await list(activeFilter(query), page);
  return { items: rows.map((row) => present(row, view)), envelope: pageEnvelope(request, page, total) };
}
