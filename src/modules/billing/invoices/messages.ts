import { actingUserId, auditActor } from '../../../access/operator.ts';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { badRequest } from '../../../errors.ts';
import { fetchPage, type PageParams } from '../../../http/pagination.ts';
import { newId } from '../../../ids.ts';
import { enqueueMail, type MailAddress, type MailAttachment } from '../../../outbox/enqueue.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { audit } from '../../workspace/audit/index.ts';
import { makeClientLink } from '../client-links/index.ts';
import { attachmentsForMail } from '../invoice-attachments/index.ts';
import { businessName, invoiceSettingsOf } from '../invoice-settings/index.ts';
import { formatDate, formatMoney, pdfFilename } from './format.ts';
import { assertComplete, attachmentFormat, attachmentProfile, E_INVOICE_RENDERER, eInvoiceFilename } from './e-invoice-data.ts';
import { INVOICE_PDF_RENDERER, loadInvoiceDocument } from './pdf.ts';
import { invoiceTotals, presentMessage, type PresentedMessage } from './presenter.ts';
import { findClient, loadWorkspace, receiptsOf, touchInvoice } from './queries.ts';
import { translator } from '../../../i18n/index.ts';
import { assertNoNul, isEmail, wrongState, type MessageEvent } from './rules.ts';
import { assertMayUseInvoices, loadInvoice } from './service.ts';
import type { MessageInput, Recipient } from './schemas.ts';

/**
 * Invoice messages (sends, reminders, thank-yous). A message is recorded in
 * `invoice_messages`, its e-mail in the outbox, and the state change (draft →
 * open on `send`) in one transaction: the three exist together or not at all,
 * and the outbox worker delivers the e-mail afterwards (with retries), rendering
 * the PDF at delivery time.
 *
 * State rules: `send` needs a draft (which becomes open) or an open invoice (a
 * resend; it stays open); `reminder` an open invoice with an amount due;
 * `thank_you` a paid invoice. Anything else is 409.
 */

export const OUTBOX_KIND = 'invoice_message';
export const SUBJECT_MAX = 998;
export const BODY_MAX = 20_000;
export const RECIPIENTS_MAX = 50;
export const NAME_MAX = 255;

function recipientList(field: string, list: Recipient[] | undefined, required: boolean): MailAddress[] {
  if (list === undefined || list.length === 0) {
    if (required) throw badRequest(`${field} needs at least one recipient with an email.`, { field });
    return [];
  }
  if (list.length > RECIPIENTS_MAX) throw badRequest(`${field} takes at most ${RECIPIENTS_MAX} recipients.`, { field });
  return list.map((r, i) => {
    const at = `${field}.${i}`;
    assertNoNul(`${at}.email`, r.email);
    const email = r.email.trim();
    if (!isEmail(email)) throw badRequest(`${at}.email is not a valid e-mail address.`, { field: `${at}.email` });
    const name = r.name?.trim() || null;
    // A name is one line of a header: control characters (NUL, line breaks) are refused.
    // eslint-disable-next-line no-control-regex
    if (name && /[\u0000-\u001f\u007f]/.test(name)) throw badRequest(`${at}.name must be a single line of text.`, { field: `${at}.name` });
    if (name && name.length > NAME_MAX) throw badRequest(`${at}.name must be at most ${NAME_MAX} characters.`, { field: `${at}.name` });
    return { email, name };
  });
}

/**
 * The first line of a default body: the one recipient greeted by the name the sender gave them
 * (a contact's, as the web app fills it in); several recipients, or an address alone, are the
 * client's business, greeted as a company is ("Sehr geehrte Damen und Herren,"), not by its name.
 */
export function greeting(to: MailAddress[], language: string): string {
  const t = translator(language);
  return to.length === 1 && to[0].name ? t('mail.greeting', { name: to[0].name }) : t('mail.greetingCompany');
}

/** Checks a message body without the database (400 naming the field). */
export function validateMessage(input: MessageInput) {
  const event: MessageEvent = input.event_type ?? 'send';
  const to = recipientList('recipients', input.recipients, true);
  if (event === 'thank_you' && input.cc_recipients && input.cc_recipients.length > 0) {
    throw badRequest('cc_recipients are not allowed on a thank_you message.', { field: 'cc_recipients' });
  }
  const cc = recipientList('cc_recipients', input.cc_recipients, false);
  assertNoNul('subject', input.subject);
  assertNoNul('body', input.body);
  const subject = input.subject?.trim() || null;
  if (subject && subject.length > SUBJECT_MAX) throw badRequest(`subject must be at most ${SUBJECT_MAX} characters.`, { field: 'subject' });
  // Line breaks in a subject would be header injection; a subject is one line.
  if (subject && /[\r\n]/.test(subject)) throw badRequest('subject must be a single line.', { field: 'subject' });
  const body = input.body?.trim() ? input.body : null;
  if (body && body.length > BODY_MAX) throw badRequest(`body must be at most ${BODY_MAX} characters.`, { field: 'body' });
  return {
    event,
    to,
    cc,
    subject,
    body,
    attachPdf: input.attach_pdf ?? true,
    attachReceipts: input.attach_expense_receipts ?? true,
    attachmentIds: input.attachment_ids ?? [],
    attachEInvoice: input.attach_e_invoice ?? null,
    sendMeACopy: input.send_me_a_copy ?? false,
  };
}

/**
 * The name an e-mail about an invoice or an estimate is sent and signed with: the one its PDF
 * prints as the seller (businessName: the legal name when set), not the internal workspace name.
 */
export async function signatureName(trx: Tx, companyId: string, workspace: { name: string }): Promise<string> {
  return businessName(await invoiceSettingsOf(trx, companyId), workspace.name);
}

interface Letter {
  /** The recipients: the greeting names the one named (greeting). */
  to: MailAddress[];
  /** The business's name in the subject and under the closing (signatureName). */
  workspaceName: string;
  number: string;
  amount: string;
  dueAmount: string;
  /** Nothing is left to pay because a retainer credit covers the invoice (a total of 0 after the credit). */
  coveredByRetainer: boolean;
  currency: string;
  dueDate: string;
  subject: string | null;
  overdue: boolean;
  attachPdf: boolean;
  /** The client's language (src/i18n): the default subject and body are written in it. */
  language: string;
}

export function defaultSubject(event: MessageEvent, l: Letter): string {
  const t = translator(l.language);
  const names = { number: l.number, workspace: l.workspaceName };
  switch (event) {
    case 'send':
      return t('invoiceMail.sendSubject', names);
    case 'reminder':
      // Before its due date (a reminder may go out early) the subject names the date, so "is due" is not read as "late".
      return t(l.overdue ? 'invoiceMail.reminderSubjectOverdue' : 'invoiceMail.reminderSubjectDue', { ...names, date: formatDate(l.dueDate, l.language) });
    case 'thank_you':
      return t('invoiceMail.thankYouSubject', names);
  }
}

export function defaultBody(event: MessageEvent, l: Letter): string {
  const t = translator(l.language);
  const date = formatDate(l.dueDate, l.language);
  const attached = l.attachPdf ? ` ${t('invoiceMail.attached')}` : '';
  const about = l.subject ? `\n\n${t('invoiceMail.about', { subject: l.subject })}` : '';
  const lines = {
    // A total of 0.00 "due on" a date reads as an error: an invoice the prepayment covers says so.
    send: (l.coveredByRetainer ? t('invoiceMail.sendCovered', { number: l.number }) : t('invoiceMail.send', { number: l.number, amount: formatMoney(l.amount, l.currency, { language: l.language }), date })) + attached,
    reminder:
      t(l.overdue ? 'invoiceMail.reminderOverdue' : 'invoiceMail.reminderDue', { number: l.number, date, amount: formatMoney(l.dueAmount, l.currency, { language: l.language }) }) +
      attached,
    thank_you: t('invoiceMail.thankYou', { number: l.number }),
  }[event];
  return `${greeting(l.to, l.language)}\n\n${lines}${about}\n\n${t('invoiceMail.closing')}\n${l.workspaceName}\n`;
}

export function messageSelect(trx: Tx, companyId: string) {
  return trx
    .selectFrom('invoice_messages as m')
    .leftJoin('outbox as o', (j) => j.onRef('o.company_id', '=', 'm.company_id').onRef('o.id', '=', 'm.outbox_id'))
    .leftJoin('users as u', 'u.id', 'm.sent_by')
    .select([
      'm.id',
      'm.invoice_id',
      'm.event_type',
      'm.recipients',
      'm.cc_recipients',
      'm.subject',
      'm.body',
      'm.attach_pdf',
      'm.attach_e_invoice',
      'm.attach_expense_receipts',
      'm.send_me_a_copy',
      'm.attachments',
      'm.sent_by',
      'u.first_name as sender_first_name',
      'u.last_name as sender_last_name',
      'u.email as sender_email',
      'm.created_at',
      'o.status as delivery_status',
      'o.attempts as delivery_attempts',
      'o.sent_at as delivered_at',
      'o.last_error as delivery_error',
    ])
    .where('m.company_id', '=', companyId);
}

/** What a send needs besides the message: `baseUrl`, the server's public URL, when the e-mail carries a client link. */
export interface SendOptions {
  baseUrl?: string;
}

/**
 * POST /invoices/:id/messages. With `baseUrl` (the server's public URL), the e-mail
 * ends with a new client link to the invoice (billing/client-links): the link is in
 * the e-mail only; the recorded body is what was written, without it.
 */
export async function sendInvoiceMessage(db: Kysely<DB>, p: Principal, id: string, input: MessageInput, now: Date, options: SendOptions = {}): Promise<PresentedMessage> {
  assertMayUseInvoices(p);
  validateMessage(input);
  return withTenant(db, p.companyId, (trx) => sendInvoiceMessageIn(trx, p, id, input, now, options));
}

/**
 * The send of POST /invoices/:id/messages in the caller's tenant transaction:
 * a recurring invoice's occurrence sends the invoice it created in the same
 * transaction, so the message and its e-mail exist exactly when the invoice does.
 */
export async function sendInvoiceMessageIn(trx: Tx, p: Principal, id: string, input: MessageInput, now: Date, { baseUrl }: SendOptions = {}): Promise<PresentedMessage> {
  assertMayUseInvoices(p);
  const m = validateMessage(input);
  const { row, lines, body: invoice } = await loadInvoice(trx, p.companyId, id, { lock: true, visibleTo: p });
  const workspace = (await loadWorkspace(trx, p.companyId))!;
  if (m.event === 'send' && row.state !== 'draft' && row.state !== 'open') {
    throw wrongState(`A ${row.state} invoice cannot be sent; only draft and open invoices can.`, row.state);
  }
  if (m.event === 'reminder' && (row.state !== 'open' || invoice.due_amount <= 0)) {
    throw wrongState(`Reminders are for open invoices with an amount due; this one is ${row.state}.`, row.state);
  }
  if (m.event === 'thank_you' && row.state !== 'paid') {
    throw wrongState(`A thank-you is for paid invoices; this one is ${row.state}.`, row.state);
  }

  const letter: Letter = {
    to: m.to,
    workspaceName: await signatureName(trx, p.companyId, workspace),
    number: row.number,
    amount: String(invoice.amount),
    dueAmount: String(invoice.due_amount),
    coveredByRetainer: invoice.due_amount <= 0 && invoiceTotals(row, lines).retainerCredit.gt(0),
    currency: row.currency,
    dueDate: row.due_date,
    subject: row.subject,
    overdue: todayIn(workspace.timezone, now) > row.due_date,
    attachPdf: m.attachPdf,
    language: (await findClient(trx, p.companyId, row.client_id))?.language ?? 'en',
  };
  const subject = m.subject ?? defaultSubject(m.event, letter);
  const text = m.body ?? defaultBody(m.event, letter);
  const attachments: MailAttachment[] = [];
  // A Factur-X file is the invoice's PDF with its XML inside: attached, it takes the plain PDF's
  // place, so the client does not get the same invoice twice.
  if (m.attachPdf && m.attachEInvoice !== 'facturx') {
    attachments.push({ filename: pdfFilename(row.number, letter.language), content_type: 'application/pdf', render: INVOICE_PDF_RENDERER, params: { invoice_id: row.id } });
  }
  if (m.attachReceipts) {
    for (const f of await receiptsOf(trx, p.companyId, row.id)) attachments.push({ filename: f.filename, content_type: f.content_type, file_id: f.id });
  }
  if (m.attachEInvoice) {
    // Checked now, not when the outbox renders it: an incomplete invoice is a 422 and nothing is sent.
    const doc = await loadInvoiceDocument(trx, p.companyId, row.id);
    assertComplete(doc, attachmentProfile(m.attachEInvoice));
    const format = attachmentFormat(m.attachEInvoice);
    attachments.push({
      filename: eInvoiceFilename(row.number, format, letter.language),
      content_type: format.kind === 'facturx' ? 'application/pdf' : 'application/xml',
      render: E_INVOICE_RENDERER,
      params: { invoice_id: row.id, format: m.attachEInvoice },
    });
  }
  // The invoice is locked: an attachment chosen here cannot be removed before the e-mail is queued.
  const chosen = await attachmentsForMail(trx, p.companyId, row.id, m.attachmentIds);
  for (const a of chosen) attachments.push({ filename: a.filename, content_type: a.content_type, file_id: a.file_id });
  let mailText = text;
  if (baseUrl) {
    const link = await makeClientLink(trx, p.companyId, { type: 'invoice', id: row.id }, { createdBy: actingUserId(p), baseUrl, now });
    mailText = `${text.replace(/\n*$/, '')}\n\n${translator(letter.language)('invoiceMail.clientLink', { url: link.url })}\n`;
  }
  // A recurring invoice whose creator has left is sent by the operator, who has no address: no reply-to, no copy.
  const sender: MailAddress | null = p.email ? { email: p.email, name: `${p.firstName} ${p.lastName}`.trim() || null } : null;
  const outboxId = await enqueueMail(trx, p.companyId, OUTBOX_KIND, {
    to: m.to,
    cc: m.cc,
    bcc: m.sendMeACopy && sender ? [sender] : [],
    reply_to: sender,
    subject,
    text: mailText,
    attachments,
  }, now);

  const messageId = newId(now.getTime());
  await trx
    .insertInto('invoice_messages')
    .values({
      company_id: p.companyId,
      id: messageId,
      invoice_id: row.id,
      event_type: m.event,
      recipients: JSON.stringify(m.to),
      cc_recipients: JSON.stringify(m.cc),
      subject,
      body: text,
      attach_pdf: m.attachPdf,
      attach_e_invoice: m.attachEInvoice,
      attach_expense_receipts: m.attachReceipts,
      send_me_a_copy: m.sendMeACopy,
      attachments: JSON.stringify(chosen.map((a) => ({ id: a.id, file_name: a.filename }))),
      sent_by: p.userId,
      outbox_id: outboxId,
      created_at: now,
    })
    .execute();
  if (m.event === 'send') {
    await touchInvoice(trx, p.companyId, row.id, { state: 'open', sent_at: row.sent_at ?? now }, now);
  }
  await audit(trx, {
    ...auditActor(p),
    action: `invoice.${m.event}`,
    subjectType: 'invoice',
    subjectId: row.id,
    details: {
      message_id: messageId,
      from_state: row.state,
      recipients: m.to.map((r) => r.email),
      ...(chosen.length ? { attachment_ids: chosen.map((a) => a.id) } : {}),
      ...(m.attachEInvoice ? { e_invoice: m.attachEInvoice } : {}),
    },
  });
  const saved = await messageSelect(trx, p.companyId).where('m.id', '=', messageId).executeTakeFirstOrThrow();
  return presentMessage(saved);
}

/** GET /invoices/:id/messages: the invoice's message history, oldest first, with each e-mail's delivery state. */
export async function listInvoiceMessages(db: Kysely<DB>, p: Principal, id: string, page: PageParams) {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => {
    const { row } = await loadInvoice(trx, p.companyId, id, { visibleTo: p });
    const query = messageSelect(trx, p.companyId).where('m.invoice_id', '=', row.id).orderBy('m.created_at').orderBy('m.id');
    const { rows, total } = await fetchPage(query, page);
    return { messages: rows.map(presentMessage), total };
  });
}
