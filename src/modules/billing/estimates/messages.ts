import type { Kysely } from 'kysely';
import { actingUserId, auditActor } from '../../../access/operator.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant } from '../../../db/tenant.ts';
import { translator } from '../../../i18n/index.ts';
import { enqueueMail, type MailAddress, type MailAttachment } from '../../../outbox/enqueue.ts';
import { audit } from '../../workspace/audit/index.ts';
import { makeClientLink } from '../client-links/index.ts';
import { assertMayUseInvoices, formatDate, greeting, formatMoney, loadWorkspace, signatureName, validateMessage } from '../invoices/index.ts';
import { ESTIMATE_PDF_RENDERER } from './pdf.ts';
import { pdfFilename, assertAllows } from './rules.ts';
import type { EstimateMessageInput } from './schemas.ts';
import { loadEstimate } from './service.ts';
import { touchEstimate } from './queries.ts';
import type { PresentedEstimate } from './presenter.ts';

/**
 * Sending an estimate: its e-mail goes into the outbox (the PDF rendered at
 * delivery) and a draft becomes sent, in one transaction, so the mail exists
 * exactly when the state change commits; the web route takes an
 * Idempotency-Key, so a repeated click sends once. A sent estimate may be sent
 * again (to someone else, or after a change); accepted and declined ones: 409.
 */

export const OUTBOX_KIND = 'estimate_message';

export function defaultSubject(l: { number: string; workspace: string; language: string }) {
  return translator(l.language)('estimateMail.subject', { number: l.number, workspace: l.workspace });
}

export function defaultBody(l: {
  to: MailAddress[];
  number: string;
  amount: string;
  date: string;
  validUntil?: string | null;
  subject: string | null;
  workspace: string;
  attachPdf: boolean;
  language: string;
}) {
  const t = translator(l.language);
  const valid = l.validUntil ? ` ${t('estimateMail.validUntil', { date: l.validUntil })}` : '';
  const attached = `${valid}${l.attachPdf ? ` ${t('estimateMail.attached')}` : ''}`;
  const about = l.subject ? `\n\n${t('estimateMail.about', { subject: l.subject })}` : '';
  return (
    `${greeting(l.to, l.language)}\n\n${t('estimateMail.body', { number: l.number, amount: l.amount, date: l.date })}${attached}${about}` +
    `\n\n${t('estimateMail.closing')}\n${l.workspace}\n`
  );
}

/**
 * With `baseUrl` (the server's public URL), the e-mail ends with a new client link
 * (billing/client-links) where the client sees the estimate and accepts or declines
 * it: each send makes its own link, and it exists only in the e-mail.
 */
export async function sendEstimate(
  db: Kysely<DB>,
  p: Principal,
  id: string,
  input: EstimateMessageInput,
  now: Date,
  { baseUrl }: { baseUrl?: string } = {},
): Promise<PresentedEstimate> {
  assertMayUseInvoices(p);
  const m = validateMessage({ ...input, event_type: 'send', attach_expense_receipts: false });
  return withTenant(db, p.companyId, async (trx) => {
    const { row, body: estimate } = await loadEstimate(trx, p.companyId, id, { lock: true, visibleTo: p });
    assertAllows('send', row.state);
    const workspace = await signatureName(trx, p.companyId, (await loadWorkspace(trx, p.companyId))!);
    const language = row.client_language;
    const subject = m.subject ?? defaultSubject({ number: row.number, workspace, language });
    const text =
      m.body ??
      defaultBody({
        to: m.to,
        number: row.number,
        amount: formatMoney(String(estimate.amount), row.currency, { language }),
        date: formatDate(row.issue_date, language),
        validUntil: row.valid_until ? formatDate(row.valid_until, language) : null,
        subject: row.subject,
        workspace,
        attachPdf: m.attachPdf,
        language,
      });
    const attachments: MailAttachment[] = m.attachPdf
      ? [{ filename: pdfFilename(row.number, language), content_type: 'application/pdf', render: ESTIMATE_PDF_RENDERER, params: { estimate_id: row.id } }]
      : [];
    let mailText = text;
    let linkId: string | undefined;
    if (baseUrl) {
      const link = await makeClientLink(trx, p.companyId, { type: 'estimate', id: row.id }, { createdBy: actingUserId(p), baseUrl, now });
      linkId = link.id;
      mailText = `${text.replace(/\n*$/, '')}\n\n${translator(language)('estimateMail.clientLink', { url: link.url })}\n`;
    }
    const sender: MailAddress = { email: p.email, name: `${p.firstName} ${p.lastName}`.trim() || null };
    const outboxId = await enqueueMail(
      trx,
      p.companyId,
      OUTBOX_KIND,
      { to: m.to, cc: m.cc, bcc: m.sendMeACopy ? [sender] : [], reply_to: sender, subject, text: mailText, attachments },
      now,
    );
    await touchEstimate(trx, p.companyId, row.id, { state: 'sent', sent_at: now }, now);
    await audit(trx, {
      ...auditActor(p),
      action: 'estimate.sent',
      subjectType: 'estimate',
      subjectId: row.id,
      details: { outbox_id: outboxId, from_state: row.state, recipients: m.to.map((r) => r.email), ...(linkId ? { link_id: linkId } : {}) },
    });
    return (await loadEstimate(trx, p.companyId, row.id)).body;
  });
}
