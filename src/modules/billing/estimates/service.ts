import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { mayDeleteInvoices } from '../../../access/invoices.ts';
import { auditActor } from '../../../access/operator.ts';
import type { DB } from '../../../db/types.ts';
import { insertRow } from '../../../db/rows.ts';
import { SharedTransaction } from '../../../db/shared-transaction.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { audit } from '../../workspace/audit/index.ts';
import {
  NOTES_MAX,
  SUBJECT_MAX,
  assertDate,
  assertMayUseInvoices,
  assertNoNul,
  createInvoice,
  currencyValue,
  explicitLines,
  kindChoices,
  findClient,
  invoiceNumber,
  invoiceProjects,
  loadWorkspace,
  optionalText,
  percentValue,
} from '../invoices/index.ts';
import { tellAuthorOfAnswer } from './answer-notice.ts';
import { estimateNumber, duplicateNumber } from './numbering.ts';
import { estimateTotals, estimateVersion, presentEstimate, type PresentedEstimate } from './presenter.ts';
import {
  deleteEstimateRow,
  estimateLinesOf,
  findEstimate,
  listEstimateRows,
  replaceLines,
  touchEstimate,
  type EstimateRow,
  type NewEstimateLine,
} from './queries.ts';
import { ANSWERS, NEGATIVE_LINE_HINT, assertAllows, type EstimateAnswer } from './rules.ts';
import type { EstimateCreateInput, EstimateLine, EstimatePatchInput } from './schemas.ts';

/**
 * Estimates: the transactions and state moves (rules.ts). Who may: whoever may use
 * invoices (owners, administrators, managers; managers the estimates they created,
 * or all with view_invoices); delete: owners and administrators, as for invoices.
 * An estimate out of reach, of another workspace, unknown or malformed is 404.
 */

/** The largest amount an estimate may reach: what its invoice may (invoices' MAX_INVOICE_AMOUNT). */
const MAX_AMOUNT = new Decimal('999999999999.99');

export async function loadEstimate(trx: Tx, companyId: string, id: string, { lock = false, visibleTo }: { lock?: boolean; visibleTo?: Principal } = {}) {
  const row = isId(id) ? await findEstimate(trx, companyId, id, { lock, visibleTo }) : undefined;
  if (!row) throw notFound('estimate');
  const lines = await estimateLinesOf(trx, companyId, [row.id]);
  return { row, lines, body: presentEstimate(row, lines) };
}

function mapConstraintError(err: unknown, number: string | undefined): never {
  const e = err as { code?: string; constraint?: string };
  if (e?.code === '23505' && e.constraint === 'estimates_number_key') throw duplicateNumber(number ?? '');
  if (e?.code === '22003') throw badRequest('A quantity, price or total is too large.', { field: 'line_items' });
  throw err;
}

// ---------------------------------------------------------------- read

export async function listEstimates(db: Kysely<DB>, p: Principal, filter: { state?: string; clientId?: string } = {}) {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => {
    const rows = await listEstimateRows(trx, p.companyId, p, filter);
    const lines = await estimateLinesOf(trx, p.companyId, rows.map((r) => r.id));
    return rows.map((r) => presentEstimate(r, lines.filter((l) => l.estimate_id === r.id)));
  });
}

export async function getEstimate(db: Kysely<DB>, p: Principal, id: string): Promise<PresentedEstimate> {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => (await loadEstimate(trx, p.companyId, id, { visibleTo: p })).body);
}

// ---------------------------------------------------------------- create and change

/** The fields of a body, checked (400 naming the field). */
function estimateFields(input: EstimatePatchInput) {
  assertDate('issue_date', input.issue_date);
  assertDate('valid_until', input.valid_until);
  const out: { subject?: string | null; notes?: string | null; tax?: string; tax2?: string; discount?: string; issue_date?: string; valid_until?: string | null } = {};
  if (input.subject !== undefined) out.subject = optionalText('subject', input.subject, SUBJECT_MAX);
  if (input.notes !== undefined) out.notes = optionalText('notes', input.notes, NOTES_MAX);
  if (input.tax !== undefined) out.tax = percentValue('tax', input.tax);
  if (input.tax2 !== undefined) out.tax2 = percentValue('tax2', input.tax2);
  if (input.discount !== undefined) out.discount = percentValue('discount', input.discount);
  if (input.issue_date !== undefined) out.issue_date = input.issue_date;
  if (input.valid_until !== undefined) out.valid_until = input.valid_until;
  return out;
}

/** An estimate is valid from its issue date: `valid_until` before it is 400. */
function assertValidity({ issue_date, valid_until }: { issue_date: string; valid_until: string | null }) {
  if (valid_until !== null && valid_until < issue_date) {
    throw badRequest(`valid_until (${valid_until}) must not be before issue_date (${issue_date}).`, { field: 'valid_until' });
  }
}

/** The lines checked by the invoices' rule for explicit lines (projects of the client the caller may invoice). */
async function checkedLines(trx: Tx, p: Principal, clientId: string, inputs: EstimateLine[], carriedKinds: readonly string[] = []): Promise<NewEstimateLine[]> {
  const named = inputs.flatMap((l) => (l.project_id == null ? [] : [l.project_id]));
  const lines = explicitLines(inputs, await invoiceProjects(trx, p, clientId, named), await kindChoices(trx, p.companyId, inputs, carriedKinds), {
    negativeHint: NEGATIVE_LINE_HINT,
  });
  return lines.map((l) => ({
    id: l.id,
    kind: l.kind,
    description: l.description,
    quantity: l.quantity,
    unit_price: l.unit_price,
    taxed: l.taxed,
    taxed2: l.taxed2,
    project_id: l.project_id,
    sort_order: l.sort_order,
  }));
}

function assertAmountsInRange(row: Pick<EstimateRow, 'tax' | 'tax2' | 'discount' | 'currency'>, lines: NewEstimateLine[]) {
  const totals = estimateTotals(row, lines);
  const biggest = [...totals.lineAmounts, totals.subtotal, totals.amount].reduce((a, b) => (b.gt(a) ? b : a), new Decimal(0));
  if (biggest.gt(MAX_AMOUNT)) {
    throw badRequest(`An estimate amount (a line, the subtotal or the total) must be at most ${MAX_AMOUNT.toFixed()}.`, { field: 'line_items' });
  }
}

/**
 * A new draft estimate with its lines, numbered last under the estimate
 * numbering lock; the tax, second tax and discount default to the client's, the
 * currency to the client's (else the workspace's).
 */
export async function createEstimate(db: Kysely<DB>, p: Principal, input: EstimateCreateInput, now: Date): Promise<PresentedEstimate> {
  assertMayUseInvoices(p);
  const fields = estimateFields(input);
  const requested = input.number === undefined ? undefined : invoiceNumber(input.number);
  const currency = input.currency === undefined ? undefined : currencyValue(input.currency);
  try {
    return await withTenant(db, p.companyId, async (trx) => {
      const workspace = await loadWorkspace(trx, p.companyId);
      if (!workspace) throw notFound('workspace');
      const client = isId(input.client_id) ? await findClient(trx, p.companyId, input.client_id, p) : undefined;
      if (!client) throw new ApiError('not_found', 'The client was not found.', { field: 'client_id' });
      if (!client.is_active) throw badRequest('The client is archived; restore it before writing it an estimate.', { field: 'client_id' });
      const lines = await checkedLines(trx, p, client.id, input.line_items);
      const values = {
        client_id: client.id,
        state: 'draft' as const,
        subject: fields.subject ?? null,
        notes: fields.notes ?? null,
        issue_date: fields.issue_date ?? todayIn(workspace.timezone, now),
        valid_until: fields.valid_until ?? null,
        currency: currency ?? client.currency ?? workspace.currency,
        tax: fields.tax ?? client.tax ?? '0',
        tax2: fields.tax2 ?? client.tax2 ?? '0',
        discount: fields.discount ?? client.discount ?? '0',
        created_by: p.userId,
      };
      assertValidity(values);
      assertAmountsInRange(values, lines);
      const id = newId(now.getTime());
      const number = await estimateNumber(trx, p.companyId, undefined, requested);
      await insertRow(trx, 'estimates', p.companyId, id, { ...values, number }, now);
      await replaceLines(trx, p.companyId, id, lines, now);
      await audit(trx, { ...auditActor(p), action: 'estimate.created', subjectType: 'estimate', subjectId: id, details: { number, lines: lines.length } });
      return (await loadEstimate(trx, p.companyId, id)).body;
    });
  } catch (err) {
    mapConstraintError(err, requested);
  }
}

/** Changes a draft or sent estimate (409 naming the state otherwise); `line_items` replaces all its lines. */
export async function updateEstimate(db: Kysely<DB>, p: Principal, id: string, input: EstimatePatchInput, now: Date): Promise<PresentedEstimate> {
  assertMayUseInvoices(p);
  const fields = estimateFields(input);
  const requested = input.number === undefined ? undefined : invoiceNumber(input.number);
  try {
    return await withTenant(db, p.companyId, async (trx) => {
      const { row, lines: current } = await loadEstimate(trx, p.companyId, id, { lock: true, visibleTo: p });
      assertAllows('edit', row.state);
      assertValidity({ issue_date: fields.issue_date ?? row.issue_date, valid_until: fields.valid_until !== undefined ? fields.valid_until : row.valid_until });
      // Kinds the estimate has keep their category though it was archived since (as an invoice's lines do).
      const lines = input.line_items ? await checkedLines(trx, p, row.client_id, input.line_items, current.map((l) => l.kind)) : current;
      assertAmountsInRange({ ...row, ...fields }, lines);
      const changes: Record<string, unknown> = { ...fields };
      if (requested !== undefined && requested !== row.number) changes.number = await estimateNumber(trx, p.companyId, row.id, requested);
      await touchEstimate(trx, p.companyId, row.id, changes, now);
      if (input.line_items) await replaceLines(trx, p.companyId, row.id, lines, now);
      await audit(trx, {
        ...auditActor(p),
        action: 'estimate.updated',
        subjectType: 'estimate',
        subjectId: row.id,
        details: { changes, ...(input.line_items ? { lines: lines.length } : {}) },
      });
      return (await loadEstimate(trx, p.companyId, row.id)).body;
    });
  } catch (err) {
    mapConstraintError(err, requested);
  }
}

/** Deletes an estimate in any state (owners and administrators); an invoice it became stays. */
export async function deleteEstimate(db: Kysely<DB>, p: Principal, id: string) {
  if (!mayDeleteInvoices(p)) throw forbidden('Only owners and administrators may delete estimates.');
  await withTenant(db, p.companyId, async (trx) => {
    const { row } = await loadEstimate(trx, p.companyId, id, { lock: true, visibleTo: p });
    await deleteEstimateRow(trx, p.companyId, row.id);
    await audit(trx, { ...auditActor(p), action: 'estimate.deleted', subjectType: 'estimate', subjectId: row.id, details: { number: row.number, state: row.state } });
  });
}

// ---------------------------------------------------------------- answers

interface Answering {
  now: Date;
  /** true: the client answered (its page); false: a user recorded the client's answer. */
  byClient: boolean;
  actor: { companyId: string; actorUserId: string | null; credentialId: string | null };
  /** Why the client declined (its page only). */
  reason?: string | null;
  /** What the audit entry adds (the client link's id). */
  details?: Record<string, unknown>;
}

/**
 * Accept or decline, under the estimate's row lock: two answers at once give one
 * result. A user's same answer again returns the estimate unchanged (a repeated
 * click); the client answers once: any state but sent is 409 naming it, so of two
 * answers at once one is recorded and the other refused, and nothing is written twice.
 */
async function answerIn(trx: Tx, id: string, answer: EstimateAnswer, a: Answering, visibleTo?: Principal) {
  const companyId = a.actor.companyId;
  const { to, stamp } = ANSWERS[answer];
  const { row, body } = await loadEstimate(trx, companyId, id, { lock: true, visibleTo });
  if (row.state === to && !a.byClient) return body;
  if (a.byClient && row.state !== 'sent') throw answeredAlready(row);
  assertAllows(answer, row.state);
  const reason = answer === 'decline' ? (a.reason ?? null) : null;
  await touchEstimate(trx, companyId, row.id, { state: to, [stamp]: a.now, answered_by_client: a.byClient, decline_reason: reason }, a.now);
  await audit(trx, { ...a.actor, action: `estimate.${to}`, subjectType: 'estimate', subjectId: row.id, details: { by_client: a.byClient, ...a.details, ...(reason ? { reason } : {}) } });
  return (await loadEstimate(trx, companyId, row.id)).body;
}

/** The client's answer to an estimate that is no longer waiting for one: 409 with the state, in words the page shows. */
function answeredAlready(row: EstimateRow) {
  const why =
    row.state === 'accepted'
      ? 'This estimate was accepted already.'
      : row.state === 'declined'
        ? 'This estimate was declined already.'
        : 'This estimate is being revised; it cannot be answered now.';
  return conflict(why, { field: 'state', state: row.state, refusal: 'estimate_state' });
}

/** A user of the workspace records the client's answer (the web app's Accept and Decline). */
export async function answerEstimate(db: Kysely<DB>, p: Principal, id: string, answer: EstimateAnswer, { now }: { now: Date }): Promise<PresentedEstimate> {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, (trx) => answerIn(trx, id, answer, { now, byClient: false, actor: auditActor(p) }, p));
}

export const DECLINE_REASON_MAX = 2000;

/**
 * The client's own answer from its page (a secret link proves who it is, see
 * billing/client-page): no principal, recorded as by the client, once, under the
 * same lock. Accepting after `valid_until` (in the workspace's time zone) is 409;
 * declining stays possible. `reason` (decline only) is trimmed, empty is none.
 */
export async function recordClientAnswer(
  db: Kysely<DB>,
  companyId: string,
  id: string,
  answer: EstimateAnswer,
  { now, reason, linkId, version }: { now: Date; reason?: string | null; linkId?: string; version?: string },
): Promise<PresentedEstimate> {
  assertNoNul('reason', reason ?? undefined);
  const why = reason?.trim() || null;
  if (why && why.length > DECLINE_REASON_MAX) throw badRequest(`reason must be at most ${DECLINE_REASON_MAX} characters.`, { field: 'reason' });
  if (why && answer !== 'decline') throw badRequest('A reason goes with a decline only.', { field: 'reason' });
  return withTenant(db, companyId, async (trx) => {
    if (answer === 'accept') {
      const workspace = await loadWorkspace(trx, companyId);
      const { row, body } = await loadEstimate(trx, companyId, id, { lock: true });
      if (row.state === 'sent' && row.valid_until !== null && workspace && todayIn(workspace.timezone, now) > row.valid_until) {
        throw conflict(`This estimate was valid until ${row.valid_until}; ask the sender for a new one.`, { field: 'valid_until', valid_until: row.valid_until });
      }
      // The sender may still edit a sent estimate: the client accepts the one they saw, or none.
      if (row.state === 'sent' && version !== undefined && version !== estimateVersion(body)) {
        throw conflict('This estimate has changed since you opened it; look at it again as it is now before you accept it.', { field: 'version' });
      }
    }
    const answered = await answerIn(trx, id, answer, {
      now,
      byClient: true,
      reason: why,
      details: linkId ? { link_id: linkId } : {},
      actor: { companyId, actorUserId: null, credentialId: null },
    });
    await tellAuthorOfAnswer(trx, companyId, answered, answer, answer === 'decline' ? why : null, now);
    return answered;
  });
}

/** A declined estimate back to draft, to revise and send again; its answer is cleared. */
export async function reopenEstimate(db: Kysely<DB>, p: Principal, id: string, { now }: { now: Date }): Promise<PresentedEstimate> {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => {
    const { row } = await loadEstimate(trx, p.companyId, id, { lock: true, visibleTo: p });
    assertAllows('reopen', row.state);
    await touchEstimate(trx, p.companyId, row.id, { state: 'draft', declined_at: null, answered_by_client: null, decline_reason: null }, now);
    await audit(trx, { ...auditActor(p), action: 'estimate.reopened', subjectType: 'estimate', subjectId: row.id, details: {} });
    return (await loadEstimate(trx, p.companyId, row.id)).body;
  });
}

// ---------------------------------------------------------------- convert

/**
 * An accepted estimate becomes a draft invoice, in one transaction: the
 * estimate is locked and checked, the invoice is made by the invoices' own
 * create (its rules, defaults and numbering) from the estimate's lines, client,
 * currency, rates, subject and notes, and the estimate records the invoice. The
 * units share one transaction (SharedTransaction), so a failure anywhere leaves
 * neither an invoice nor a link; the row lock makes a second convert (or a
 * decline racing it) wait and then see the result. Converted already: 409 with
 * the invoice's id; not accepted: 409 naming the state.
 */
export async function convertEstimate(db: Kysely<DB>, p: Principal, id: string, { now }: { now: Date }) {
  assertMayUseInvoices(p);
  const shared = new SharedTransaction(db, p.companyId, { prelude: {}, check: async () => {} });
  try {
    const { row, lines } = await withTenant(shared.handle, p.companyId, async (trx) => {
      const loaded = await loadEstimate(trx, p.companyId, id, { lock: true, visibleTo: p });
      if (loaded.row.converted_invoice_id) {
        throw conflict(`This estimate was converted already, to invoice ${loaded.row.invoice_number}.`, {
          field: 'state',
          state: loaded.row.state,
          invoice_id: loaded.row.converted_invoice_id,
        });
      }
      assertAllows('convert', loaded.row.state);
      return loaded;
    });
    const invoice = await createInvoice(
      shared.handle,
      p,
      {
        client_id: row.client_id,
        currency: row.currency,
        subject: row.subject,
        notes: row.notes,
        tax: Number(row.tax),
        tax2: Number(row.tax2),
        discount: Number(row.discount),
        line_items: lines.map((l) => ({
          kind: l.kind,
          description: l.description,
          quantity: Number(l.quantity),
          unit_price: Number(l.unit_price),
          taxed: l.taxed,
          taxed2: l.taxed2,
          project_id: l.project_id,
          sort_order: l.sort_order,
        })),
      },
      now,
      { carriedKinds: lines.map((l) => l.kind) },
    );
    const estimate = await withTenant(shared.handle, p.companyId, async (trx) => {
      await touchEstimate(trx, p.companyId, row.id, { converted_invoice_id: invoice.id }, now);
      await audit(trx, { ...auditActor(p), action: 'estimate.converted', subjectType: 'estimate', subjectId: row.id, details: { invoice_id: invoice.id, invoice_number: invoice.number } });
      return (await loadEstimate(trx, p.companyId, row.id)).body;
    });
    await shared.commit(async () => {});
    return { estimate, invoice };
  } catch (err) {
    await shared.rollback();
    throw err;
  }
}
