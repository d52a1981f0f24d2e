import type { Tx } from '../../../db/tenant.ts';
import { translator } from '../../../i18n/index.ts';
import { enqueueMail } from '../../../outbox/enqueue.ts';
import { formatMoney } from '../invoices/index.ts';
import type { PresentedEstimate } from './presenter.ts';
import type { EstimateAnswer } from './rules.ts';

/**
 * The team hears of a client's answer from its page: the estimate's author (an active member
 * with an address) gets an e-mail in their language, in the answer's transaction (through the
 * outbox, so it goes once the answer is committed, and not when it is not). An answer recorded
 * by a member in the web app is their own doing and tells nobody.
 */
export async function tellAuthorOfAnswer(trx: Tx, companyId: string, estimate: PresentedEstimate, answer: EstimateAnswer, reason: string | null, now: Date) {
  if (!estimate.creator) return;
  const author = await trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.email', 'u.first_name', 'u.last_name', 'u.language'])
    .where('m.company_id', '=', companyId)
    .where('m.user_id', '=', estimate.creator.id)
    .where('m.is_active', '=', true)
    .executeTakeFirst();
  if (!author?.email) return;
  const t = translator(author.language);
  const values = { client: estimate.client.name, number: estimate.number, amount: formatMoney(String(estimate.amount), estimate.currency, { language: author.language ?? 'en' }) };
  const text = [
    t('mail.greeting', { name: author.first_name }),
    '',
    t(answer === 'accept' ? 'estimateAnswer.accepted' : 'estimateAnswer.declined', values),
    ...(reason ? ['', t('estimateAnswer.reason', { reason })] : []),
    '',
    t('estimateAnswer.where'),
  ].join('\n');
  await enqueueMail(
    trx,
    companyId,
    answer === 'accept' ? 'estimate_accepted' : 'estimate_declined',
    { to: [{ email: author.email, name: [author.first_name, author.last_name].filter(Boolean).join(' ') }], subject: t(answer === 'accept' ? 'estimateAnswer.acceptedSubject' : 'estimateAnswer.declinedSubject', values), text },
    now,
  );
}
