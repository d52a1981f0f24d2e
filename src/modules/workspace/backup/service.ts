import { sql, type Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { mayExportBackup } from '../../../access/backup.ts';
import type { DB } from '../../../db/types.ts';
import { runsConcurrently } from '../../../db/database.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { longStatementLimit, type DatabaseTimeouts } from '../../../db/timeouts.ts';
import { badRequest, forbidden, notFound } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { ReadAhead, type ReadResult } from './read-ahead.ts';
import { countRecords, findInvoiceExpenseReceipt, selectChildren, selectPage, type RenderedRow } from './queries.ts';
import {
  BACKUP_SCHEMA_VERSION,
  EXCLUDED,
  RESOURCES,
  RESOURCE_BY_NAME,
  type ResourceSpec,
  type TableResourceSpec,
} from './resources.ts';

/**
 * The workspace backup: the manifest, one page of one resource, and the
 * invoice expense-receipt files. Read-only; every read runs in one tenant
 * transaction of the caller's workspace, under the longer statement limit
 * (counting a large resource, a page of big records, a file of several MiB).
 */

type Row = Record<string, unknown>;

export const resourcePath = (name: string) => `/api/v2/backup/${name}`;

function assertMayExport(p: Principal) {
  if (!mayExportBackup(p)) throw forbidden('Only owners and administrators may export the workspace backup.');
}

const NOTES = [
  'Records are ordered by their key (uuid, time-ordered) and `links.next` continues after the last record of the page (`after`), so a crawl never skips or repeats a record that exists throughout it; records created during a crawl may or may not appear. A crawl is not a point-in-time snapshot.',
  '`per_page` counts parent records; nested arrays (contacts in clients; user_assignments, task_assignments and rates in projects; rates in members; line_items, payments, messages, attachments and expense_receipts in invoices) come whole inside their parent.',
  'Dates are YYYY-MM-DD and timestamps ISO 8601 UTC; decimal and bigint values are JSON strings; `company_id` is left out of records (the whole export is one workspace).',
  'File bytes are never embedded: fetch each `receipt_download_url` and `download_url` with the same headers; they answer raw bytes with their content type.',
  'Every effective-dated rate is exported once: the project-scoped ones (project, task, person on a project) in `projects[].rates`, a person\'s default billable and cost rates in `members[].rates`.',
  'Clients must preserve unknown fields and check `backup_schema_version`; fields and resources may be added within version 1.',
];

const longStatements = (timeouts: DatabaseTimeouts) => ({ statement_limit: longStatementLimit(timeouts) });

export function manifest(db: Kysely<DB>, p: Principal, now: Date, timeouts: DatabaseTimeouts) {
  assertMayExport(p);
  return withTenant(db, p.companyId, async (trx) => {
    const resources = [];
    for (const spec of RESOURCES) {
      resources.push({
        name: spec.name,
        description: spec.description,
        total_entries: spec.kind === 'table' ? await countRecords(trx, p.companyId, spec) : 0,
        endpoint: resourcePath(spec.name),
      });
    }
    return {
      backup_schema_version: BACKUP_SCHEMA_VERSION,
      generated_at: now.toISOString(),
      workspace: { id: p.companyId, name: p.companyName },
      resources,
      excluded: EXCLUDED,
      notes: [...NOTES, ...RESOURCES.flatMap((r) => (r.kind === 'empty' ? [r.note] : []))],
    };
  }, longStatements(timeouts));
}

/** The keyset cursor: the key values of the last record of a page, joined by '.'. */
export function encodeCursor(key: string[]): string {
  return key.join('.');
}

function decodeCursor(spec: TableResourceSpec, after: string): string[] {
  const parts = after.split('.');
  if (parts.length !== spec.key.length || !parts.every(isId)) {
    throw badRequest("Invalid query parameter 'after': use the links the previous page gave.", { field: 'after' });
  }
  return parts;
}

/**
 * Counting a large resource costs far more than reading a page of it (a count of
 * a million time entries takes 100-300 ms; a keyset page well under 1 ms), so a
 * crawl's continuation pages (those with `after`) reuse a count of the same
 * workspace and resource made in the last COUNT_REUSE_MS by this process. The
 * manifest and every page without `after` count afresh.
 */
const COUNT_REUSE_MS = 10_000;
const COUNT_MEMO_MAX = 10_000;
const recentCounts = new Map<string, { total: number; at: number }>();

async function totalOf(trx: Tx, companyId: string, spec: TableResourceSpec, continuation: boolean): Promise<number> {
  const key = `${companyId}/${spec.name}`;
  const now = Date.now();
  const recent = recentCounts.get(key);
  if (continuation && recent && now - recent.at < COUNT_REUSE_MS) return recent.total;
  const total = await countRecords(trx, companyId, spec);
  if (recentCounts.size >= COUNT_MEMO_MAX) recentCounts.clear();
  recentCounts.set(key, { total, at: now });
  return total;
}

export interface PageRequest {
  page: number;
  perPage: number;
  after?: string;
}

export interface BackupPage {
  spec: ResourceSpec;
  /** Each record's JSON text, in order. */
  records: string[];
  total: number;
  /** The cursor for the next page; null on the last page. */
  nextAfter: string | null;
}

export function resourceSpec(name: string): ResourceSpec {
  const spec = RESOURCE_BY_NAME.get(name);
  if (!spec) throw notFound('backup resource');
  return spec;
}

const readAheads = new WeakMap<Kysely<DB>, ReadAhead<BackupPage>>();

/** The read-ahead of a database handle (one per handle and process), or undefined where reads queue (see read-ahead.ts). */
export function backupReadAhead(db: Kysely<DB>): ReadAhead<BackupPage> | undefined {
  if (!runsConcurrently(db)) return undefined;
  let ahead = readAheads.get(db);
  if (!ahead) readAheads.set(db, (ahead = new ReadAhead<BackupPage>(db)));
  return ahead;
}

export async function resourcePage(
  db: Kysely<DB>,
  p: Principal,
  name: string,
  req: PageRequest,
  timeouts: DatabaseTimeouts,
  ahead?: ReadAhead<BackupPage>,
): Promise<BackupPage> {
  assertMayExport(p);
  const spec = resourceSpec(name);
  if (spec.kind === 'empty') {
    if (req.after !== undefined) throw badRequest("Invalid query parameter 'after': this resource has no records.", { field: 'after' });
    return { spec, records: [], total: 0, nextAfter: null };
  }
  const after = req.after === undefined ? null : decodeCursor(spec, req.after);
  const read = (cursor: string[] | null) => readPage(db, p.companyId, spec, { ...req, after: cursor }, timeouts);
  if (!ahead) return (await read(after)).page;
  const taken = req.after === undefined ? null : await ahead.take(ReadAhead.key(p.companyId, name, req.perPage, req.after));
  const { page } = taken?.result ?? (await read(after));
  if (page.nextAfter) {
    const next = page.nextAfter;
    ahead.offer(ReadAhead.key(p.companyId, name, req.perPage, next), taken?.pause ?? 0, () => read(decodeCursor(spec, next)));
  }
  return page;
}

/** One page of a resource, read in one tenant transaction that starts by noting its snapshot (see read-ahead.ts). */
function readPage(
  db: Kysely<DB>,
  companyId: string,
  spec: TableResourceSpec,
  req: { page: number; perPage: number; after: string[] | null },
  timeouts: DatabaseTimeouts,
): Promise<ReadResult<BackupPage>> {
  const { after } = req;
  const prelude = { ...longStatements(timeouts), snapshot: sql<string>`pg_current_snapshot()::text` };
  return withTenant(db, companyId, async (trx, { snapshot }) => {
    // One row more than the page tells whether a next page exists, whatever the count says meanwhile.
    const rows = await selectPage(trx, companyId, spec, {
      after,
      offset: (req.page - 1) * req.perPage,
      limit: req.perPage + 1,
    });
    const hasMore = rows.length > req.perPage;
    if (hasMore) rows.length = req.perPage;
    const total = await totalOf(trx, companyId, spec, after !== null);
    const children: Array<{ field: string; groups: Map<string, RenderedRow[]> }> = [];
    for (const child of spec.children ?? []) {
      children.push({ field: JSON.stringify(child.field), groups: await selectChildren(trx, companyId, child, rows.map((r) => r.id)) });
    }
    const records = rows.map((row) => {
      let json = row.json;
      let reserialize = row.reserialize;
      if (children.length) {
        // The children go after the record's columns, in the spec's order (row_to_json's text ends with '}').
        let nested = '';
        for (const { field, groups } of children) {
          const group = groups.get(row.id) ?? [];
          nested += `,${field}:[${group.map((c) => c.json).join(',')}]`;
          reserialize ||= group.some((c) => c.reserialize);
        }
        json = `${json.slice(0, -1)}${nested}}`;
      }
      if (spec.present) return JSON.stringify(spec.present(JSON.parse(json) as Row));
      // jsonb comes from PostgreSQL with spaces and its own number forms: re-serialized, it reads as before.
      return reserialize ? JSON.stringify(JSON.parse(json)) : json;
    });
    const page: BackupPage = { spec, records, total, nextAfter: hasMore ? encodeCursor(rows[rows.length - 1].key) : null };
    return { page, snapshot };
  }, prelude);
}

/** The bytes of an invoice's copy of an expense receipt; 404 for anything else. */
export function invoiceExpenseReceipt(db: Kysely<DB>, p: Principal, id: string, timeouts: DatabaseTimeouts) {
  assertMayExport(p);
  return withTenant(db, p.companyId, async (trx) => {
    const file = isId(id) ? await findInvoiceExpenseReceipt(trx, p.companyId, id) : undefined;
    if (!file) throw notFound('file');
    return file;
  }, longStatements(timeouts));
}
