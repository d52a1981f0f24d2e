import type { Kysely } from 'kysely';
import { actingUserId, auditActor } from '../../../access/operator.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError, conflict, notFound } from '../../../errors.ts';
import { isLanguage } from '../../../i18n/index.ts';
import { audit } from '../../workspace/audit/index.ts';
import { clientLinkSummary, makeClientLink, openClientLink, revokeClientLinks, type ClientLinkSubject } from '../client-links/index.ts';
import {
  estimatePdfFilename,
  loadEstimateDocument,
  estimateVersion,
  presentEstimate,
  recordClientAnswer,
  renderEstimatePdf,
  type EstimateAnswer,
  type EstimateDocument,
} from '../estimates/index.ts';
import {
  E_INVOICE_ATTACHMENTS,
  attachmentFormat,
  attachmentProfile,
  eInvoiceFilename,
  eInvoiceWriter,
  getInvoice,
  loadInvoiceDocument,
  loadWorkspace,
  missingFields,
  pdfFilename,
  presentInvoice,
  printedTotals,
  renderInvoicePdf,
  translatedKind,
  type EInvoiceAttachment,
  type Seller,
} from '../invoices/index.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { paymentsOf } from './queries.ts';
import type { ClientEstimate, ClientInvoice } from './schemas.ts';

/**
 * The client's page of a sent invoice (issue 25 item 6). Inside the workspace:
 * the invoice page shows how many links work and when the client last looked,
 * makes a new link on request (shown once) and revokes them all. Outside: a
 * token (from the page URL's fragment) shows that one invoice, its payments and
 * its PDF, to anyone who holds it, until it is revoked; an unknown or revoked
 * token, or a draft, is a plain 404 that says nothing about why.
 */

const invoiceSubject = (id: string): ClientLinkSubject => ({ type: 'invoice', id });

/** The invoice in the caller's reach (as GET /invoices/:id decides: 404 otherwise), and its links' summary. */
export async function invoiceLinks(db: Kysely<DB>, p: Principal, invoiceId: string) {
  const invoice = await getInvoice(db, p, invoiceId);
  return withTenant(db, p.companyId, (trx) => clientLinkSummary(trx, p.companyId, invoiceSubject(invoice.id)));
}

/** A new link to a sent invoice, shown once; a draft has none (409): the client sees an invoice once it is sent. */
export async function createInvoiceLink(db: Kysely<DB>, p: Principal, invoiceId: string, { baseUrl, now }: { baseUrl: string; now: Date }) {
  const invoice = await getInvoice(db, p, invoiceId);
  if (invoice.state === 'draft') throw conflict('A draft has no client link: send the invoice first.', { state: invoice.state });
  return withTenant(db, p.companyId, async (trx) => {
    const link = await makeClientLink(trx, p.companyId, invoiceSubject(invoice.id), { createdBy: actingUserId(p), baseUrl, now });
    await audit(trx, { ...auditActor(p), action: 'invoice.client_link_created', subjectType: 'invoice', subjectId: invoice.id, details: { link_id: link.id } });
    return { url: link.url, ...(await clientLinkSummary(trx, p.companyId, invoiceSubject(invoice.id))) };
  });
}

/** Revokes every link to the invoice: from the next request on, each is a 404. */
export async function revokeInvoiceLinks(db: Kysely<DB>, p: Principal, invoiceId: string, now: Date) {
  const invoice = await getInvoice(db, p, invoiceId);
  await withTenant(db, p.companyId, async (trx) => {
    const revoked = await revokeClientLinks(trx, p.companyId, invoiceSubject(invoice.id), now);
    if (revoked > 0) {
      await audit(trx, { ...auditActor(p), action: 'invoice.client_links_revoked', subjectType: 'invoice', subjectId: invoice.id, details: { revoked } });
    }
  });
}

const gone = () => notFound('page');

async function documentOf(trx: Tx, companyId: string, invoiceId: string) {
  try {
    const doc = await loadInvoiceDocument(trx, companyId, invoiceId);
    return doc.invoice.state === 'draft' ? null : doc;
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 404) return null; // deleted since: the same 404 as an unknown link
    throw err;
  }
}

/** POST /web/api/client-page: what the client's page shows, an invoice or an estimate. */
export async function clientPage(db: Kysely<DB>, token: unknown, now: Date): Promise<ClientInvoice | ClientEstimate> {
  const link = await openClientLink(db, token, now);
  if (!link) throw gone();
  if (link.subject.type === 'estimate') return clientEstimatePage(db, link.companyId, link.subject.id, now);
  return clientInvoicePage(db, { companyId: link.companyId, invoiceId: link.subject.id });
}

/** POST /web/api/client-page/pdf: the PDF of the link's invoice or estimate, the document its e-mail carries. */
export async function clientPagePdf(db: Kysely<DB>, token: unknown, now: Date): Promise<{ pdf: Buffer; filename: string }> {
  const link = await openClientLink(db, token, now);
  if (!link) throw gone();
  if (link.subject.type === 'estimate') {
    const doc = await withTenant(db, link.companyId, (trx) => estimateOf(trx, link.companyId, link.subject.id));
    if (!doc) throw gone();
    return { pdf: await renderEstimatePdf(doc), filename: estimatePdfFilename(doc.estimate.number, doc.client.language) };
  }
  return clientInvoicePdf(db, { companyId: link.companyId, invoiceId: link.subject.id });
}

/**
 * What the page shows first, alike for an invoice and an estimate: the client's language (the
 * page's), the seller as the document prints it (with its tax number and VAT ID) and the client
 * (with its VAT ID, as drawClient prints it).
 */
function pageHead({ workspace: w, client: c }: { workspace: Seller; client: EstimateDocument['client'] }) {
  return {
    language: isLanguage(c.language) ? c.language : 'en',
    seller: { name: w.name, address: w.address, email: w.sender_email ?? null, phone: w.sender_phone ?? null, tax_id: w.tax_id ?? null, vat_id: w.vat_id || null },
    client: { name: c.name, address: c.address, vat_id: c.vat_id || null },
  };
}

async function clientInvoicePage(db: Kysely<DB>, link: { companyId: string; invoiceId: string }): Promise<ClientInvoice> {
  return withTenant(db, link.companyId, async (trx) => {
    const doc = await documentOf(trx, link.companyId, link.invoiceId);
    if (!doc) throw gone();
    const i = presentInvoice(doc.invoice, doc.lines);
    // The totals as the PDF prints them, so the page and the PDF the client downloads read alike.
    const printed = printedTotals(doc.invoice, doc.lines);
    const payments = await paymentsOf(trx, link.companyId, link.invoiceId);
    return {
      kind: 'invoice' as const,
      ...pageHead(doc),
      invoice: {
        number: i.number,
        state: i.state as ClientInvoice['invoice']['state'],
        subject: i.subject,
        purchase_order: i.purchase_order,
        issue_date: i.issue_date,
        due_date: i.due_date,
        currency: i.currency,
        period_start: i.period_start,
        period_end: i.period_end,
        service_period_start: i.service_period_start,
        service_period_end: i.service_period_end,
        notes: i.notes,
        line_items: i.line_items.map((l) => ({ kind: l.kind, description: l.description, quantity: l.quantity, unit_price: l.unit_price, amount: l.amount, effect: l.effect })),
        subtotal: printed.subtotal,
        discount: i.discount,
        discount_amount: i.discount_amount,
        tax: i.tax,
        tax_amount: i.tax_amount,
        tax2: i.tax2,
        tax2_amount: i.tax2_amount,
        retainer_credit: printed.retainer_credit,
        amount: i.amount,
        paid_amount: i.paid_amount,
        due_amount: i.due_amount,
      },
      payments: payments.map((p) => ({ paid_date: p.paid_date, amount: Number(p.amount) })),
      e_invoices: E_INVOICE_ATTACHMENTS.filter((name) => missingFields(doc, attachmentProfile(name)).length === 0),
    };
  });
}

async function clientInvoicePdf(db: Kysely<DB>, link: { companyId: string; invoiceId: string }): Promise<{ pdf: Buffer; filename: string }> {
  const doc = await withTenant(db, link.companyId, (trx) => documentOf(trx, link.companyId, link.invoiceId));
  if (!doc) throw gone();
  return { pdf: await renderInvoicePdf(doc), filename: pdfFilename(doc.invoice.number, doc.client.language) };
}

/** POST /web/api/client-page/e-invoice: one of the e-invoices the page offers, for an invoice's link only. */
export async function clientPageEInvoice(db: Kysely<DB>, token: unknown, name: EInvoiceAttachment, now: Date) {
  const link = await openClientLink(db, token, now);
  if (!link || link.subject.type !== 'invoice') throw gone();
  const doc = await withTenant(db, link.companyId, (trx) => documentOf(trx, link.companyId, link.subject.id));
  if (!doc) throw gone();
  const format = attachmentFormat(name);
  const { renderEInvoice } = await eInvoiceWriter();
  return {
    body: await renderEInvoice(doc, format),
    filename: eInvoiceFilename(doc.invoice.number, format, doc.client.language),
    contentType: format.kind === 'facturx' ? 'application/pdf' : 'application/xml; charset=utf-8',
  };
}

// ---------------------------------------------------------------- estimates

/** The estimate a link shows; null when the client must not see it (a draft: never sent, or reopened to revise; deleted). */
async function estimateOf(trx: Tx, companyId: string, estimateId: string): Promise<EstimateDocument | null> {
  try {
    const doc = await loadEstimateDocument(trx, companyId, estimateId);
    return doc.estimate.state === 'draft' ? null : doc;
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 404) return null;
    throw err;
  }
}

async function clientEstimatePage(db: Kysely<DB>, companyId: string, estimateId: string, now: Date): Promise<ClientEstimate> {
  return withTenant(db, companyId, async (trx) => {
    const doc = await estimateOf(trx, companyId, estimateId);
    const workspace = doc && (await loadWorkspace(trx, companyId));
    if (!doc || !workspace) throw gone();
    const e = presentEstimate(doc.estimate, doc.lines);
    const head = pageHead(doc);
    const expired = e.valid_until !== null && todayIn(workspace.timezone, now) > e.valid_until;
    return {
      kind: 'estimate' as const,
      ...head,
      estimate: {
        number: e.number,
        state: e.state as ClientEstimate['estimate']['state'],
        subject: e.subject,
        issue_date: e.issue_date,
        valid_until: e.valid_until,
        expired,
        can_answer: e.state === 'sent',
        version: estimateVersion(e),
        currency: e.currency,
        notes: e.notes,
        line_items: e.line_items.map((l) => ({
          kind: translatedKind(l.kind, head.language),
          description: l.description,
          quantity: l.quantity,
          unit_price: l.unit_price,
          amount: l.amount,
        })),
        subtotal: e.subtotal,
        discount: e.discount,
        discount_amount: e.discount_amount,
        tax: e.tax,
        tax_amount: e.tax_amount,
        tax2: e.tax2,
        tax2_amount: e.tax2_amount,
        amount: e.amount,
        accepted_at: e.accepted_at,
        declined_at: e.declined_at,
        decline_reason: e.decline_reason,
      },
    };
  });
}

/**
 * POST /web/api/client-page/accept and /decline: the client's answer, recorded once
 * (billing/estimates recordClientAnswer: under the estimate's lock, 409 once
 * answered). Only a working link to a sent estimate: an invoice's link, a draft, a
 * revoked or unknown link are the page's plain 404. Answers with the page as it is now.
 */
export async function answerClientEstimate(
  db: Kysely<DB>,
  token: unknown,
  answer: EstimateAnswer,
  { now, reason, version }: { now: Date; reason?: string | null; version?: string },
) {
  const link = await openClientLink(db, token, now);
  if (!link || link.subject.type !== 'estimate') throw gone();
  const visible = await withTenant(db, link.companyId, (trx) => estimateOf(trx, link.companyId, link.subject.id));
  if (!visible) throw gone();
  await recordClientAnswer(db, link.companyId, link.subject.id, answer, { now, reason, linkId: link.linkId, version });
  return clientEstimatePage(db, link.companyId, link.subject.id, now);
}
