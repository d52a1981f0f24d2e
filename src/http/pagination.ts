import { Type } from '@sinclair/typebox';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { FastifyRequest } from 'fastify';

export const MAX_PER_PAGE = 2000;
export const DEFAULT_PER_PAGE = 100;

/** `page` and `per_page` for every collection: absurd values are a 400, not a clamp. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Page number, from 1.' })),
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: `Page size, default ${DEFAULT_PER_PAGE}.` }),
  ),
};

export interface PageParams {
  page: number;
  perPage: number;
}

export function pageParams(query: { page?: number; per_page?: number }): PageParams {
  return { page: query.page ?? 1, perPage: query.per_page ?? DEFAULT_PER_PAGE };
}

export const LinksSchema = Type.Object({
  first: Type.String(),
  next: Type.Union([Type.String(), Type.Null()]),
  previous: Type.Union([Type.String(), Type.Null()]),
  last: Type.String(),
});

/** The envelope fields that sit next to a collection's entity array. */
export const EnvelopeSchema = {
  per_page: Type.Integer(),
  total_pages: Type.Integer(),
  total_entries: Type.Integer(),
  page: Type.Integer(),
  links: LinksSchema,
};

/**
 * Runs one page of a query. The total rides along as a window count, so a page
 * costs one round trip; only a page past the end needs a separate count. Meant
 * for bounded collections (projects, clients, people): the window count reads
 * every matching row, so collections that grow without bound use fetchCountedPage.
 */
export async function fetchPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  { page, perPage }: PageParams,
): Promise<{ rows: O[]; total: number }> {
  const rows = (await query
    .select(sql<string>`count(*) over ()`.as('__total'))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute()) as Array<O & { __total?: string }>;
  if (rows.length > 0) {
    const total = Number(rows[0].__total);
    // Cleared, not deleted: `delete` would turn every row into a slow dictionary-mode
    // object, which the presenters of a 2,000-row page then read field by field.
    for (const row of rows) row.__total = undefined;
    return { rows, total };
  }
  if (page === 1) return { rows: [], total: 0 };
  const counted = await query
    .clearSelect()
    .clearOrderBy()
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return { rows: [], total: Number((counted as { n: string }).n) };
}

/**
 * One page of a large collection, and its total counted in a statement of its own.
 * A window count makes PostgreSQL read, join and count every matching row before it
 * returns the first (1.4 s for a default page of a 1,000,000-entry workspace); here
 * the page stops at its last row when an index gives its order, and the count reads
 * only what its own query names (an index-only scan: 53 ms for those 1,000,000). A
 * first page shorter than per_page is its own total and needs no count. The two
 * statements see separate snapshots: a write committed between them can make the
 * total differ from the page by that write, as the next page would anyway.
 */
export async function fetchCountedPage<O>(
  pageQuery: SelectQueryBuilder<any, any, O>,
  countQuery: SelectQueryBuilder<any, any, { n: string | number | bigint }>,
  { page, perPage }: PageParams,
): Promise<{ rows: O[]; total: number }> {
  const rows = await pageQuery.limit(perPage).offset((page - 1) * perPage).execute();
  if (page === 1 && rows.length < perPage) return { rows, total: rows.length };
  const counted = await countQuery.executeTakeFirstOrThrow();
  return { rows, total: Number(counted.n) };
}

/** A relative link to another page of the same request, keeping its filters. */
function pageLink(request: FastifyRequest, page: number, perPage: number): string {
  const [path, search = ''] = request.url.split('?');
  const params = new URLSearchParams(search);
  params.set('page', String(page));
  params.set('per_page', String(perPage));
  return `${path}?${params.toString()}`;
}

export function pageEnvelope(request: FastifyRequest, { page, perPage }: PageParams, total: number) {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  return {
    per_page: perPage,
    total_pages: totalPages,
    total_entries: total,
    page,
    links: {
      first: pageLink(request, 1, perPage),
      next: page < totalPages ? pageLink(request, page + 1, perPage) : null,
      previous: page > 1 ? pageLink(request, Math.min(page - 1, totalPages), perPage) : null,
      last: pageLink(request, totalPages, perPage),
    },
  };
}
