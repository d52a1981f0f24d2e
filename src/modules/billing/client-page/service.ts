import type { Kysely } from 'kysely';
import { actingUserId, auditActor } from '../../../access/operator.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError, conflict, notFound } from '../../../errors.ts';
import { isLanguage } from '../../../i18n/index.ts';
import { audit } from '../../workspace/audit/index.ts';
import { clientLinkSummary, makeClientLink, openClientLink, revokeClientLinks, type ClientLinkSubject } from '../client-links/index.ts';
import { getInvoice, loadInvoiceDocument, pdfFilename, presentInvoice, renderInvoicePdf } from '../invoices/index.ts';
import { paymentsOf } from './queries.ts';
import type { ClientInvoice } from './schemas.ts';

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

/** The invoice a token shows, with its workspace; null for anything the page must not show. */
async function openInvoiceLink(db: Kysely<DB>, token: unknown, now: Date) {
  const link = await openClientLink(db, token, now);
  if (!link || link.subject.type !== 'invoice') return null;
  return { companyId: link.companyId, invoiceId: link.subject.id };
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

/** POST /web/api/client-page: what the client's page shows. */
export async function clientInvoicePage(db: Kysely<DB>, token: unknown, now: Date): Promise<ClientInvoice> {
  const link = await openInvoiceLink(db, token, now);
  if (!link) throw gone();
  return withTenant(db, link.companyId, async (trx) => {
    const doc = await documentOf(trx, link.companyId, link.invoiceId);
    if (!doc) throw gone();
    const i = presentInvoice(doc.invoice, doc.lines);
    const payments = await paymentsOf(trx, link.companyId, link.invoiceId);
    const { workspace: w, client: c } = doc;
    return {
      kind: 'invoice' as const,
      language: isLanguage(c.language) ? c.language : 'en',
      seller: { name: w.name, address: w.address, email: w.sender_email ?? null, phone: w.sender_phone ?? null, tax_id: w.tax_id ?? null },
      client: { name: c.name, address: c.address },
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
        subtotal: i.subtotal,
        discount: i.discount,
        discount_amount: i.discount_amount,
        tax: i.tax,
        tax_amount: i.tax_amount,
        tax2: i.tax2,
        tax2_amount: i.tax2_amount,
        amount: i.amount,
        paid_amount: i.paid_amount,
        due_amount: i.due_amount,
      },
      payments: payments.map((p) => ({ paid_date: p.paid_date, amount: Number(p.amount) })),
    };
  });
}

/** POST /web/api/client-page/pdf: the invoice's PDF, the document its e-mail carries. */
export async function clientInvoicePdf(db: Kysely<DB>, token: unknown, now: Date): Promise<{ pdf: Buffer; filename: string }> {
  const link = await openInvoiceLink(db, token, now);
  if (!link) throw gone();
  const doc = await withTenant(db, link.companyId, (trx) => documentOf(trx, link.companyId, link.invoiceId));
  if (!doc) throw gone();
  return { pdf: await renderInvoicePdf(doc), filename: pdfFilename(doc.invoice.number) };
}
