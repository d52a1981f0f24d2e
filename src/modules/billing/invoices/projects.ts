import type { Principal } from '../../../auth/principal.ts';
import type { Tx } from '../../../db/tenant.ts';
import { ApiError, badRequest } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { invoiceProjectRows, type InvoiceProjectRow } from './queries.ts';

/**
 * The projects an invoice may draw on (`line_items_import.project_ids`, a line's
 * `project_id`), one rule for both. A project id is
 * - accepted when it is a project of the invoice's client that the caller may
 *   invoice (access/invoices.invoiceableProject: administrators every project,
 *   managers those they actively manage);
 * - 404 `not_found` (naming the field) when it names no project the caller can
 *   see: unknown, malformed, of another workspace, or unassigned, as the spec
 *   answers for invisible records (the same 404 as an inaccessible client id);
 * - 400 when the caller sees it but it belongs to another client (a conflicting
 *   field);
 * - 403 when it is the client's and visible, but the caller may not invoice it
 *   (a manager assigned to the project without managing it).
 */
export interface InvoiceProjects {
  /** The client's projects the caller may invoice (an import's default scope). */
  invoiceable: InvoiceProjectRow[];
  /** The project named by `id` at `field`, or the error above. */
  resolve(id: string, field: string): InvoiceProjectRow;
}

export async function invoiceProjects(trx: Tx, p: Principal, clientId: string, named: string[]): Promise<InvoiceProjects> {
  const rows = await invoiceProjectRows(trx, p, clientId, [...new Set(named.filter(isId))]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    invoiceable: rows.filter((r) => r.client_id === clientId && r.invoiceable),
    resolve(id, field) {
      const row = byId.get(id);
      if (!row || !row.visible) throw new ApiError('not_found', `${field}: the project '${id}' was not found.`, { field });
      if (row.client_id !== clientId) throw badRequest(`${field}: '${id}' is not a project of the invoice's client.`, { field });
      if (!row.invoiceable) {
        throw new ApiError('forbidden', `${field}: you do not manage the project '${id}'; managers invoice the projects they manage.`, { field });
      }
      return row;
    },
  };
}
