import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { invoicesEveryProject, mayCloseInvoices, mayDeleteInvoices, mayInvoiceTrackedTime, mayUseInvoices } from '../../../access/invoices.ts';
import { actingUserId, auditActor } from '../../../access/operator.ts';
import type { DB, InvoiceState, PaymentTerms } from '../../../db/types.ts';
import { insertRow } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { isId, newId } from '../../../ids.ts';
import { instantOn, todayIn } from '../../../time/workspace-time.ts';
import { pauseAt } from '../../../test-pause.ts';
import { RETAINER_KIND } from './kinds.ts';
import { audit, type AuditAction } from '../../workspace/audit/index.ts';
import { activeKindNames, matchKind, sameName } from '../item-categories/index.ts';
import { invoiceSettingsOf } from '../invoice-settings/index.ts';
import { prepareImport, validateImportRequest } from './import.ts';
import type { CreateInput, LineEdit, LineInput, LineTaxesInput, UpdateInput } from './schemas.ts';
import { assignNumber, duplicateNumber, pendingNumber } from './numbering.ts';
import { invoiceProjects, type InvoiceProjects } from './projects.ts';
import { invoiceTotals, presentInvoice, type PresentedInvoice } from './presenter.ts';
import {
  deleteInvoiceRow,
  deleteRetainerLine,
  findClient,
  findInvoice,
  findInvoiceIdByNumber,
  insertLines,
  insertPayment,
  linesOf,
  listInvoices as listInvoiceRows,
  loadWorkspace,
  paymentsOf,
  releaseBilled,
  touchInvoice,
  updateLine,
  type InvoiceFilter,
  type InvoiceRow,
  type LineRow,
  type NewLine,
  type WorkspaceRow,
} from './queries.ts';
import {
  DEFAULT_KIND,
  DESCRIPTION_MAX,
  KIND_MAX,
  NOTES_MAX,
  INVOICE_DATE_FIELDS,
  PURCHASE_ORDER_MAX,
  SUBJECT_MAX,
  assertDates,
  assertNoNul,
  assertRange,
  currencyValue,
  invoiceNumber,
  optionalText,
  patchDue,
  percentValue,
  quantityValue,
  resolveDue,
  unitPriceValue,
  wrongState,
} from './rules.ts';

/**
 * Invoices: the transactions and state transitions. Every operation runs in one
 * tenant transaction; an invoice of another workspace, unknown, with a malformed
 * id, or out of the caller's reach (access/invoices.ts) is simply not found.
 */

/** Called with the locked current invoice (as presented) before a change: If-Match checks. */
export type Precondition = (current: PresentedInvoice) => void;


/** A unique-index race that slipped past the numbering lock still ends as the 409 it is. */
function mapConstraintError(err: unknown, number: string | undefined): never {
  const e = err as { code?: string; constraint?: string };
  if (e?.code === '23505' && e.constraint === 'invoices_number_key') throw duplicateNumber(number ?? '');
  if (e?.code === '22003') throw badRequest('A quantity, price or total is too large.');
  throw err;
}

/**
 * The largest money amount an invoice may reach (a line, the subtotal, the
 * total): what a payment (NUMERIC(14,2)) can record, and well inside the
 * integers a JSON number holds exactly in cents.
 */
export const MAX_INVOICE_AMOUNT = new Decimal('999999999999.99');

function assertAmountsInRange(row: InvoiceRow, lines: LineRow[]) {
  const totals = invoiceTotals(row, lines);
  const biggest = [...totals.lineAmounts, totals.subtotal.abs(), totals.amount.abs()].reduce((a, b) => (b.gt(a) ? b : a), new Decimal(0));
  if (biggest.gt(MAX_INVOICE_AMOUNT)) {
    throw badRequest(`An invoice amount (a line, the subtotal or the total) must be at most ${MAX_INVOICE_AMOUNT.toFixed()}.`, {
      field: 'line_items',
    });
  }
}

/**
 * A retainer credit (billing/retainers) never takes the amount due below 0: a draft whose
 * charges are lowered under its credits is refused (400), the credit is to be removed first.
 */
function assertDueNotNegative(row: InvoiceRow, lines: LineRow[]) {
  if (!lines.some((l) => l.retainer_id !== null && l.effect === 'credit')) return;
  if (invoiceTotals(row, lines).dueAmount.isNegative()) {
    throw badRequest('The retainer credit would be more than the invoice amount; remove the retainer credit first, or lower it.', { field: 'line_items' });
  }
}

/**
 * Loads an invoice with its lines and presents it; with `visibleTo`, only an
 * invoice in that principal's reach (404 otherwise, like an unknown one).
 */
export async function loadInvoice(trx: Tx, companyId: string, id: string, { lock = false, visibleTo }: { lock?: boolean; visibleTo?: Principal } = {}) {
  const row = isId(id) ? await findInvoice(trx, companyId, id, { lock, visibleTo }) : undefined;
  if (!row) throw notFound('invoice');
  const lines = await linesOf(trx, companyId, [row.id]);
  return { row, lines, body: presentInvoice(row, lines) };
}

async function workspaceOf(trx: Tx, companyId: string): Promise<WorkspaceRow> {
  const w = await loadWorkspace(trx, companyId);
  if (!w) throw notFound('workspace');
  return w;
}

/**
 * When a paid invoice was paid: the day of its latest payment (a payment recorded today for money
 * that arrived on 1 December makes it paid on 1 December), now when it has none (nothing was due).
 */
export async function paidAtOf(trx: Tx, companyId: string, invoiceId: string, now: Date): Promise<Date> {
  const last = (await paymentsOf(trx, companyId, invoiceId)).at(-1);
  return last ? instantOn(last.paid_date, (await workspaceOf(trx, companyId)).timezone, now) : now;
}

/** 403 unless the caller may use the invoice routes at all (owners, administrators, managers). */
export function assertMayUseInvoices(p: Principal) {
  if (!mayUseInvoices(p)) throw forbidden('Invoices are for owners, administrators and managers.');
}

// ---------------------------------------------------------------- read

export async function listInvoices(db: Kysely<DB>, p: Principal, filter: InvoiceFilter, page: PageParams) {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => {
    const { rows, total } = await listInvoiceRows(trx, p.companyId, filter, page, p);
    const lines = await linesOf(trx, p.companyId, rows.map((r) => r.id));
    const byInvoice = new Map<string, typeof lines>();
    for (const l of lines) {
      const list = byInvoice.get(l.invoice_id) ?? [];
      list.push(l);
      byInvoice.set(l.invoice_id, list);
    }
    return { invoices: rows.map((r) => presentInvoice(r, byInvoice.get(r.id) ?? [])), total };
  });
}

export async function getInvoice(db: Kysely<DB>, p: Principal, id: string): Promise<PresentedInvoice> {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => (await loadInvoice(trx, p.companyId, id, { visibleTo: p })).body);
}

// ---------------------------------------------------------------- create

/** The kind text as sent: trimmed, 1..KIND_MAX, no NUL (400 naming the line's field). */
function sentKind(field: string, value: string): string {
  assertNoNul(field, value);
  const kind = value.trim();
  if (!kind || kind.length > KIND_MAX) throw badRequest(`${field} must be 1 to ${KIND_MAX} characters.`, { field });
  return kind;
}

/**
 * The names a line's kind may take now (the workspace's active item categories), read only
 * when some line sends a kind: an omitted kind is the built-in, never archived `Service`.
 * `carried`: the kinds of the document the lines come from (an estimate edited or converted,
 * a recurring template), which stay valid though their category was archived since, as an
 * invoice line's unchanged kind does.
 */
export async function kindChoices(trx: Tx, companyId: string, lines: ReadonlyArray<{ kind?: string }> | undefined, carried: readonly string[] = []): Promise<string[]> {
  if (!lines?.some((l) => l.kind !== undefined)) return [];
  const active = await activeKindNames(trx, companyId);
  return [...active, ...carried.filter((kind) => !active.some((name) => sameName(name, kind)))];
}

/**
 * Explicit lines. A kind sent must name an active item category (ignoring case) and is
 * stored as the category spells it; an omitted one is `Service`, the spec's default.
 * `negativeHint` ends the 400 of a negative quantity or unit price (default: an invoice's
 * credit lines; estimates, which have none, say what they take instead).
 */
export function explicitLines(
  inputs: LineInput[],
  projects: InvoiceProjects,
  kinds: readonly string[],
  { negativeHint }: { negativeHint?: string } = {},
): NewLine[] {
  return inputs.map((l, i) => {
    const at = (field: string) => `line_items.${i}.${field}`;
    const kind = l.kind === undefined ? DEFAULT_KIND : matchKind(kinds, sentKind(at('kind'), l.kind), at('kind'));
    if (l.project_id != null) projects.resolve(l.project_id, at('project_id'));
    return {
      id: newId(),
      kind,
      description: lineDescription(at('description'), l.description),
      quantity: l.quantity === undefined ? '1' : quantityValue(at('quantity'), l.quantity, negativeHint),
      unit_price: l.unit_price === undefined ? '0' : unitPriceValue(at('unit_price'), l.unit_price, negativeHint),
      effect: l.effect ?? 'charge',
      taxed: l.taxed ?? true,
      taxed2: l.taxed2 ?? true,
      project_id: l.project_id ?? null,
      sort_order: l.sort_order ?? i,
      import_source: null,
    };
  });
}

function lineDescription(field: string, value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  assertNoNul(field, value);
  if (value.length > DESCRIPTION_MAX) throw badRequest(`${field} must be at most ${DESCRIPTION_MAX} characters.`, { field });
  return value.trim() ? value : null;
}

/**
 * POST /invoices: from tracked work (`line_items_import`) or explicit
 * `line_items` (never both), as a draft. The invoice is inserted first with a
 * placeholder number, the work is locked, lines are written and linked, and the
 * number is assigned last under the numbering lock; one transaction, so a
 * failure at any step (nothing importable, a duplicate number) leaves no invoice
 * and no billed flag behind. Who may invoice which client, projects and work:
 * access/invoices.ts (client visibility here, project ids in projects.ts).
 */
/** What a create from another document keeps of it: its lines' kinds (kindChoices' `carried`). */
export interface CreateOptions {
  carriedKinds?: readonly string[];
}

export async function createInvoice(db: Kysely<DB>, p: Principal, input: CreateInput, now: Date, options: CreateOptions = {}): Promise<PresentedInvoice> {
  return createOrPreview(db, p, input, now, false, options);
}

/** Carries a preview's invoice out of its transaction, which throwing it rolls back. */
class PreviewRollback extends Error {
  constructor(readonly invoice: PresentedInvoice) {
    super('invoice preview rolled back');
  }
}

/**
 * The web app's preview of POST /invoices (issue 16 item 6): the same checks,
 * import, pricing, totals and number as createInvoice, in a transaction that is
 * always rolled back, so nothing is created, nothing becomes billed and no number
 * is used (numbers are the next free one, not a sequence). The ids in the answer
 * are throwaway; the number is the one a create would get now.
 */
export async function previewInvoice(db: Kysely<DB>, p: Principal, input: CreateInput, now: Date): Promise<PresentedInvoice> {
  return createOrPreview(db, p, input, now, true);
}

async function createOrPreview(db: Kysely<DB>, p: Principal, input: CreateInput, now: Date, preview: boolean, options: CreateOptions = {}): Promise<PresentedInvoice> {
  assertMayUseInvoices(p);
  try {
    return await withTenant(db, p.companyId, async (trx) => {
      const body = await createInvoiceIn(trx, p, input, now, options);
      if (preview) throw new PreviewRollback(body);
      return body;
    });
  } catch (err) {
    if (err instanceof PreviewRollback) return err.invoice;
    throw err;
  }
}

/**
 * The create of POST /invoices in the caller's tenant transaction (`trx`, of
 * p's workspace): what a recurring invoice's occurrence runs, so the invoice and
 * the occurrence that made it commit together or not at all.
 */
export async function createInvoiceIn(trx: Tx, p: Principal, input: CreateInput, now: Date, { carriedKinds = [] }: CreateOptions = {}): Promise<PresentedInvoice> {
  assertMayUseInvoices(p);
  if (input.line_items && input.line_items_import) {
    throw badRequest('Send either line_items or line_items_import, not both.', { field: 'line_items' });
  }
  if (!input.line_items && !input.line_items_import) {
    throw badRequest('Send line_items_import (invoice tracked work) or line_items (explicit lines).', { field: 'line_items_import' });
  }
  assertDates(input, INVOICE_DATE_FIELDS);
  if (input.line_items_import) validateImportRequest(input.line_items_import);
  if (input.line_items_import?.time && !mayInvoiceTrackedTime(p)) {
    throw forbidden('Invoicing tracked time prices it at billable rates, which needs the View billable rates permission.');
  }
  const requested = input.number === undefined ? undefined : invoiceNumber(input.number);
  const currency = input.currency === undefined ? undefined : currencyValue(input.currency);
  const rates = {
    tax: input.tax === undefined ? undefined : percentValue('tax', input.tax),
    tax2: input.tax2 === undefined ? undefined : percentValue('tax2', input.tax2),
    discount: input.discount === undefined ? undefined : percentValue('discount', input.discount),
  };
  const text = {
    subject: optionalText('subject', input.subject, SUBJECT_MAX),
    purchase_order: optionalText('purchase_order', input.purchase_order, PURCHASE_ORDER_MAX),
    notes: optionalText('notes', input.notes, NOTES_MAX),
  };
  assertRange(input.period_start ?? null, input.period_end ?? null, 'period_start', 'period_end');
  assertRange(input.service_period_start ?? null, input.service_period_end ?? null, 'service_period_start', 'service_period_end');

  try {
    const workspace = await workspaceOf(trx, p.companyId);
    // The spec's rule for client ids: inaccessible or of another workspace is 404 (malformed too, as on every route).
    const client = isId(input.client_id) ? await findClient(trx, p.companyId, input.client_id, p) : undefined;
    if (!client) throw new ApiError('not_found', 'The client was not found.', { field: 'client_id' });
    if (!client.is_active) throw badRequest('The client is archived; restore it before invoicing it.', { field: 'client_id' });

    const issueDate = input.issue_date ?? todayIn(workspace.timezone, now);
    // The invoice settings' defaults fill what neither the request nor the client gives.
    const settings = await invoiceSettingsOf(trx, p.companyId);
    const terms = client.payment_terms ? client : { payment_terms: settings.default_payment_term, payment_days: settings.default_payment_days };
    if (input.notes === undefined) text.notes = settings.default_notes;
    const due = resolveDue({ issueDate, paymentTerm: input.payment_term, dueDate: input.due_date }, terms);
    assertRange(issueDate, due.due_date, 'issue_date', 'due_date');

    const id = newId(now.getTime());
    await insertRow(
      trx,
      'invoices',
      p.companyId,
      id,
      {
        client_id: client.id,
        number: pendingNumber(id),
        state: 'draft',
        ...text,
        issue_date: issueDate,
        due_date: due.due_date,
        payment_term: due.payment_term,
        currency: currency ?? client.currency ?? workspace.currency,
        tax: rates.tax ?? client.tax ?? '0',
        tax2: rates.tax2 ?? client.tax2 ?? '0',
        discount: rates.discount ?? client.discount ?? '0',
        period_start: input.period_start ?? null,
        period_end: input.period_end ?? null,
        service_period_start: input.service_period_start ?? null,
        service_period_end: input.service_period_end ?? null,
        created_by: p.userId,
      },
      now,
    );

    let details: Record<string, unknown>;
    if (input.line_items_import) {
      const reach = await invoiceProjects(trx, p, client.id, input.line_items_import.project_ids ?? []);
      const imported = await prepareImport(trx, p.companyId, {
        clientId: client.id,
        request: input.line_items_import,
        workspace,
        reach,
        everyProject: invoicesEveryProject(p),
        now,
      });
      await insertLines(trx, p.companyId, id, imported.lines, now);
      await imported.link(id, now);
      await pauseAt('invoice-import');
      // The period defaults to the dates of the work imported.
      if (input.period_start === undefined && input.period_end === undefined) {
        await touchInvoice(trx, p.companyId, id, { period_start: imported.firstDate, period_end: imported.lastDate }, now);
      }
      details = { source: 'import', lines: imported.lines.length, time_entries: imported.timeEntries, expenses: imported.expenses };
    } else {
      const named = input.line_items!.flatMap((l) => (l.project_id == null ? [] : [l.project_id]));
      const projects = await invoiceProjects(trx, p, client.id, named);
      const lines = explicitLines(input.line_items!, projects, await kindChoices(trx, p.companyId, input.line_items, carriedKinds));
      await insertLines(trx, p.companyId, id, lines, now);
      details = { source: 'explicit', lines: lines.length };
    }

    const created = await loadInvoice(trx, p.companyId, id);
    assertAmountsInRange(created.row, created.lines);
    const number = await assignNumber(trx, p.companyId, id, requested, now);
    await audit(trx, { ...auditActor(p), action: 'invoice.created', subjectType: 'invoice', subjectId: id, details: { number, ...details } });
    return (await loadInvoice(trx, p.companyId, id)).body;
  } catch (err) {
    mapConstraintError(err, requested);
  }
}

// ---------------------------------------------------------------- update

type InvoiceColumns = {
  subject?: string | null;
  issue_date?: string;
  due_date?: string;
  payment_term?: PaymentTerms | null;
  purchase_order?: string | null;
  tax?: string;
  tax2?: string;
  discount?: string;
  notes?: string | null;
  period_start?: string | null;
  period_end?: string | null;
  service_period_start?: string | null;
  service_period_end?: string | null;
};

/**
 * PATCH: drafts only (409 otherwise). Invoice-level fields of the spec, and line
 * edits by id (description, unit_price, kind). Totals follow from the lines;
 * links to imported time and expenses stay. Check order: 404, 412 (If-Match),
 * 409 (not a draft), 400 (values), 409 (duplicate number).
 */
export async function updateInvoice(
  db: Kysely<DB>,
  p: Principal,
  id: string,
  input: UpdateInput,
  options: { now: Date; precondition?: Precondition },
): Promise<PresentedInvoice> {
  return editDraft(db, p, id, input, options);
}

/**
 * The web app's change of a draft's line taxes (`taxed`, `taxed2`), which the API's PATCH does not
 * take (the spec names description, unit_price and kind): the same edit of the draft as PATCH, so
 * the same reach, 404, 412, 409 for anything but a draft, totals, audit entry and change (the
 * `invoice.updated` webhook). A line given neither flag is 400 naming it; a retainer line stays
 * untaxed (400).
 */
export async function setLineTaxes(
  db: Kysely<DB>,
  p: Principal,
  id: string,
  input: LineTaxesInput,
  options: { now: Date; precondition?: Precondition },
): Promise<PresentedInvoice> {
  input.line_items.forEach((line, i) => {
    if (line.taxed === undefined && line.taxed2 === undefined) {
      throw badRequest(`line_items.${i} sets neither taxed nor taxed2.`, { field: `line_items.${i}` });
    }
  });
  return editDraft(db, p, id, { line_items: input.line_items }, options);
}

/** A draft's edit: the PATCH's fields and line edits, and the web app's line taxes. */
type DraftEdit = Omit<UpdateInput, 'line_items'> & { line_items?: Array<LineEdit & Omit<LineTaxesInput['line_items'][number], 'id'>> };

/** Every change of a draft, one path: PATCH /api/v2/invoices/:id and the web app's line taxes. */
async function editDraft(
  db: Kysely<DB>,
  p: Principal,
  id: string,
  input: DraftEdit,
  { now, precondition }: { now: Date; precondition?: Precondition },
): Promise<PresentedInvoice> {
  assertMayUseInvoices(p);
  assertDates(input, INVOICE_DATE_FIELDS);
  const requested = input.number === undefined ? undefined : invoiceNumber(input.number);
  try {
    return await withTenant(db, p.companyId, async (trx) => {
      const current = await loadInvoice(trx, p.companyId, id, { lock: true, visibleTo: p });
      precondition?.(current.body);
      const row = current.row;
      if (row.state !== 'draft') {
        throw wrongState(`Only draft invoices can be changed; this one is ${row.state}.`, row.state);
      }
      const changes = invoiceChanges(row, input);
      const lineEdits = lineChanges(current.lines, input.line_items ?? [], await kindChoices(trx, p.companyId, input.line_items));

      let changed = false;
      for (const edit of lineEdits) {
        await updateLine(trx, p.companyId, edit.id, edit.changes, now);
        changed = true;
      }
      if (Object.keys(changes).length > 0) changed = true;
      if (requested !== undefined && requested !== row.number) {
        await assignNumber(trx, p.companyId, row.id, requested, now);
        changed = true;
      }
      if (!changed) return current.body;
      await touchInvoice(trx, p.companyId, row.id, changes, now);
      await audit(trx, {
        ...auditActor(p),
        action: 'invoice.updated',
        subjectType: 'invoice',
        subjectId: row.id,
        details: { changes: { ...changes, ...(requested !== undefined ? { number: requested } : {}) }, lines: lineEdits.map((e) => e.id) },
      });
      const updated = await loadInvoice(trx, p.companyId, row.id);
      assertAmountsInRange(updated.row, updated.lines);
      assertDueNotNegative(updated.row, updated.lines);
      return updated.body;
    });
  } catch (err) {
    mapConstraintError(err, requested);
  }
}

/** The invoice columns a PATCH changes (only those whose value differs), checked on the merged state. */
function invoiceChanges(row: InvoiceRow, input: DraftEdit): InvoiceColumns {
  const next: InvoiceColumns = {};
  if (input.subject !== undefined) next.subject = optionalText('subject', input.subject, SUBJECT_MAX);
  if (input.purchase_order !== undefined) next.purchase_order = optionalText('purchase_order', input.purchase_order, PURCHASE_ORDER_MAX);
  if (input.notes !== undefined) next.notes = optionalText('notes', input.notes, NOTES_MAX);
  if (input.tax !== undefined) next.tax = percentValue('tax', input.tax);
  if (input.tax2 !== undefined) next.tax2 = percentValue('tax2', input.tax2);
  if (input.discount !== undefined) next.discount = percentValue('discount', input.discount);
  for (const key of ['period_start', 'period_end', 'service_period_start', 'service_period_end'] as const) {
    if (input[key] !== undefined) next[key] = input[key];
  }
  if (input.issue_date !== undefined || input.due_date !== undefined) {
    const due = patchDue(row, { issue_date: input.issue_date, due_date: input.due_date });
    if (input.issue_date !== undefined) next.issue_date = input.issue_date;
    next.due_date = due.due_date;
    next.payment_term = due.payment_term;
  }
  const merged = { ...row, ...next };
  assertRange(merged.issue_date, merged.due_date, 'issue_date', 'due_date', input.due_date !== undefined ? 'due_date' : 'issue_date');
  const blame = (start: string, end: string) => (input[end as 'period_end'] !== undefined ? end : start);
  assertRange(merged.period_start, merged.period_end, 'period_start', 'period_end', blame('period_start', 'period_end'));
  assertRange(
    merged.service_period_start,
    merged.service_period_end,
    'service_period_start',
    'service_period_end',
    blame('service_period_start', 'service_period_end'),
  );
  const changes: InvoiceColumns = {};
  for (const [key, value] of Object.entries(next) as Array<[keyof InvoiceColumns, string | null]>) {
    const before = row[key] as string | null;
    const same = ['tax', 'tax2', 'discount'].includes(key) ? Number(before ?? 0) === Number(value ?? 0) : before === value;
    if (!same) (changes as Record<string, unknown>)[key] = value;
  }
  return changes;
}

/** What a line edit may change. */
type LineColumns = { description?: string | null; unit_price?: string; kind?: string; taxed?: boolean; taxed2?: boolean };

/**
 * Line edits: each by the id of a line of this invoice (400 naming the element otherwise); only
 * real changes. A kind that is the line's own (ignoring case) is no change, so an imported
 * `SERVICE` stays and a line keeps a category archived since; another kind must name an
 * active item category and is stored as the category spells it. The tax flags (the web app's
 * only) may be set on any line but a retainer's, which is never taxed (totals.ts).
 */
function lineChanges(
  lines: Array<{ id: string; description: string | null; unit_price: string; kind: string; taxed: boolean; taxed2: boolean; retainer_id: string | null }>,
  edits: NonNullable<DraftEdit['line_items']>,
  kinds: readonly string[],
) {
  const byId = new Map(lines.map((l) => [l.id, l]));
  const seen = new Set<string>();
  const out: Array<{ id: string; changes: LineColumns }> = [];
  edits.forEach((edit, i) => {
    const at = (field: string) => `line_items.${i}.${field}`;
    const line = byId.get(edit.id);
    if (!line) throw badRequest(`${at('id')} is not a line of this invoice.`, { field: at('id') });
    if (seen.has(edit.id)) throw badRequest(`${at('id')}: the line is listed twice.`, { field: at('id') });
    seen.add(edit.id);
    const changes: LineColumns = {};
    if (edit.description !== undefined) {
      const description = lineDescription(at('description'), edit.description);
      if (description !== line.description) changes.description = description;
    }
    if (edit.unit_price !== undefined) {
      const price = unitPriceValue(at('unit_price'), edit.unit_price);
      if (Number(price) !== Number(line.unit_price)) {
        if (line.retainer_id) throw badRequest(`${at('unit_price')}: a retainer line's amount is set by the retainer; remove the line and apply the retainer again.`, { field: at('unit_price') });
        changes.unit_price = price;
      }
    }
    if (edit.kind !== undefined) {
      const kind = sentKind(at('kind'), edit.kind);
      if (!sameName(kind, line.kind)) {
        if (line.retainer_id) throw badRequest(`${at('kind')}: a retainer line keeps its kind.`, { field: at('kind') });
        changes.kind = matchKind(kinds, kind, at('kind'));
      }
    }
    for (const flag of ['taxed', 'taxed2'] as const) {
      const value = edit[flag];
      if (value === undefined || value === line[flag]) continue;
      if (line.retainer_id) throw badRequest(`${at(flag)}: a retainer line is never taxed.`, { field: at(flag) });
      changes[flag] = value;
    }
    if (Object.keys(changes).length > 0) out.push({ id: edit.id, changes });
  });
  return out;
}

// ---------------------------------------------------------------- delete

/**
 * DELETE: owners and administrators, drafts only. The time entries and expenses
 * the invoice captured are released (billed flag off, links cleared) in the same
 * transaction. Order: 404, 412 (a stale If-Match; it is optional), 409 (not a draft).
 */
export async function deleteInvoice(db: Kysely<DB>, p: Principal, id: string, { now, precondition }: { now: Date; precondition?: Precondition }) {
  if (!mayDeleteInvoices(p)) throw forbidden('Only owners and administrators may delete invoices.');
  await withTenant(db, p.companyId, async (trx) => {
    const current = await loadInvoice(trx, p.companyId, id, { lock: true, visibleTo: p });
    precondition?.(current.body);
    if (current.row.state !== 'draft') {
      throw wrongState(`Only draft invoices can be deleted; this one is ${current.row.state}.`, current.row.state);
    }
    const released = await releaseBilled(trx, p.companyId, current.row.id, now);
    await deleteInvoiceRow(trx, p.companyId, current.row.id);
    await audit(trx, {
      ...auditActor(p),
      action: 'invoice.deleted',
      subjectType: 'invoice',
      subjectId: current.row.id,
      details: { number: current.row.number, released },
    });
  });
}

// ---------------------------------------------------------------- close, void, mark paid

/**
 * The states after sending, for owners and administrators (mayCloseInvoices):
 * the web app names an invoice by id (transitionInvoiceById), the operator
 * (`sheaf admin invoice mark-paid|close|void`) by id or number (transitionInvoice).
 * One rule for both:
 *
 * - mark-paid: open → paid; records a payment of the amount due (dated --date,
 *   default today in the workspace zone), so `due_amount` becomes 0; nothing when
 *   nothing is due (a retainer's credit covers the invoice);
 * - close: open → closed (written off without full payment);
 * - void: open → voided (cancelled). A draft is deleted instead (DELETE
 *   /invoices/:id), which releases its time and expenses; a voided invoice keeps
 *   them billed, as the record of what was invoiced.
 */

export type InvoiceTransition = 'mark-paid' | 'close' | 'void';

const TRANSITIONS: Record<InvoiceTransition, { to: InvoiceState; action: AuditAction }> = {
  'mark-paid': { to: 'paid', action: 'invoice.paid' },
  close: { to: 'closed', action: 'invoice.closed' },
  void: { to: 'voided', action: 'invoice.voided' },
};

function assertMayCloseInvoices(p: Principal) {
  if (!mayCloseInvoices(p)) throw forbidden('Only owners and administrators close, void or mark invoices paid.');
}

/** An invoice by id or by number. */
async function resolveInvoiceId(trx: Tx, companyId: string, ref: string): Promise<string> {
  if (isId(ref) && (await findInvoice(trx, companyId, ref))) return ref;
  const id = await findInvoiceIdByNumber(trx, companyId, ref);
  if (!id) throw notFound('invoice');
  return id;
}

/** An open invoice, named by id or number, to paid, closed or voided; any other state is 409. */
export async function transitionInvoice(
  db: Kysely<DB>,
  p: Principal,
  ref: string,
  transition: InvoiceTransition,
  { now, paidDate }: { now: Date; paidDate?: string },
): Promise<PresentedInvoice> {
  assertMayCloseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => {
    const id = await resolveInvoiceId(trx, p.companyId, ref);
    return transitionIn(trx, p, id, transition, { now, paidDate });
  });
}

/**
 * Close, void or mark paid from the web app (issue 16 item 6; mark paid, issue 25: an
 * invoice its retainer credit covers has nothing due, so no payment can settle it), by id
 * only. Idempotent: an invoice already in the target state is returned unchanged (a
 * repeated click is not an error); any other state than open is the 409 the CLI gives.
 */
export async function transitionInvoiceById(
  db: Kysely<DB>,
  p: Principal,
  id: string,
  transition: InvoiceTransition,
  { now }: { now: Date },
): Promise<PresentedInvoice> {
  assertMayCloseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => {
    if (!isId(id) || !(await findInvoice(trx, p.companyId, id))) throw notFound('invoice');
    return transitionIn(trx, p, id, transition, { now, repeatIsDone: true, paymentNotes: 'Marked paid in the web app' });
  });
}

async function transitionIn(
  trx: Tx,
  p: Principal,
  id: string,
  transition: InvoiceTransition,
  {
    now,
    paidDate,
    repeatIsDone = false,
    paymentNotes = 'Recorded by sheaf admin invoice mark-paid',
  }: { now: Date; paidDate?: string; repeatIsDone?: boolean; paymentNotes?: string },
): Promise<PresentedInvoice> {
  const companyId = p.companyId;
  const { to, action } = TRANSITIONS[transition];
  const { row, lines, body } = await loadInvoice(trx, companyId, id, { lock: true });
  if (repeatIsDone && row.state === to) return body;
  if (row.state !== 'open') {
    const hint = row.state === 'draft' ? ' Send it first, or delete the draft.' : '';
    throw wrongState(`Only open invoices can be ${to === 'paid' ? 'marked paid' : to}; this one is ${row.state}.${hint}`, row.state);
  }
  // A voided invoice asks nothing of the client: money recorded on it would be stranded there.
  if (transition === 'void' && body.paid_amount > 0) {
    throw conflict(
      `Payments of ${row.paid_total} ${row.currency} are recorded on this invoice: delete them first (and refund the client, if they paid), then void it; or close it instead.`,
      { refusal: 'invoice_has_payments', paid_amount: body.paid_amount, currency: row.currency },
    );
  }
  const changes: Record<string, unknown> = { state: to };
  let payment: string | null = null;
  if (transition === 'mark-paid') {
    const workspace = await workspaceOf(trx, companyId);
    const due = invoiceTotals(row, lines).dueAmount; // exact, never through a JSON number
    if (due.gt(0)) {
      payment = due.toFixed();
      await insertPayment(trx, companyId, row.id, {
        amount: payment,
        paid_date: paidDate ?? todayIn(workspace.timezone, now),
        notes: paymentNotes,
        now,
      });
    }
    changes.paid_at = await paidAtOf(trx, companyId, row.id, now);
  }
  await touchInvoice(trx, companyId, row.id, changes, now);
  await audit(trx, { companyId, actorUserId: actingUserId(p), action, subjectType: 'invoice', subjectId: row.id, details: { from_state: row.state, payment } });
  return (await loadInvoice(trx, companyId, row.id)).body;
}

// ---------------------------------------------------------------- retainer lines

/**
 * A line linked to a retainer (billing/retainers, which holds the retainer's lock, checks its
 * balance, and has locked this draft invoice through loadInvoice): one unit at the amount,
 * untaxed, outside the discount (totals.ts), kind Retainer, after the other lines. A funding
 * line is a charge; a credit line draws on the retainer and may not take the amount due
 * below 0. Returns the invoice as it is after.
 */
export async function addRetainerLineIn(
  trx: Tx,
  companyId: string,
  invoiceId: string,
  line: { retainerId: string; effect: 'charge' | 'credit'; amount: string; description: string },
  now: Date,
): Promise<PresentedInvoice> {
  const { lines } = await loadInvoice(trx, companyId, invoiceId);
  const last = lines.reduce((max, l) => Math.max(max, l.sort_order), -1);
  await insertLines(
    trx,
    companyId,
    invoiceId,
    [
      {
        id: newId(now.getTime()),
        kind: RETAINER_KIND,
        description: line.description,
        quantity: '1',
        unit_price: line.amount,
        effect: line.effect,
        taxed: false,
        taxed2: false,
        project_id: null,
        sort_order: Math.min(last + 1, 1_000_000),
        import_source: null,
        retainer_id: line.retainerId,
      },
    ],
    now,
  );
  await touchInvoice(trx, companyId, invoiceId, {}, now);
  const after = await loadInvoice(trx, companyId, invoiceId);
  assertAmountsInRange(after.row, after.lines);
  assertDueNotNegative(after.row, after.lines);
  return after.body;
}

/** Removes a retainer line of an invoice (the caller holds the invoice's lock); undefined when it has no such line. */
export async function removeRetainerLineIn(trx: Tx, companyId: string, invoiceId: string, lineId: string, now: Date) {
  const removed = isId(lineId) ? await deleteRetainerLine(trx, companyId, invoiceId, lineId) : undefined;
  if (!removed) return undefined;
  await touchInvoice(trx, companyId, invoiceId, {}, now);
  return { line: removed, invoice: (await loadInvoice(trx, companyId, invoiceId)).body };
}
