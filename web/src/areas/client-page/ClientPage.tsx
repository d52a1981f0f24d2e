import { useEffect, useMemo, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { createFormat } from '../../ui/format.ts';
import { LOCALES, browserLanguage, setLanguage } from '../../ui/i18n.ts';
import { DefinitionField as Field } from '../../ui/Definitions.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { useStackedTables } from '../../ui/stacked-tables.ts';
import { fileSafe, useClientPage, useDownloadEInvoice, useDownloadPdf, type ClientInvoice, type EInvoiceName } from './api.ts';
import { EstimateView } from './EstimateView.tsx';
import { DocumentTitle, Frame, LinesAndTotals, Notes, Parties } from './parts.tsx';
import { useClientPageTexts } from './texts.ts';

/**
 * /c#<token>: the invoice or estimate a client link shows (issue 25), in the client's
 * language: who sends it to whom, the lines and totals, and the PDF; for an invoice the
 * payments and the amount due, for an estimate its validity and the client's Accept
 * and Decline (EstimateView.tsx). The token stays in the fragment (no request carries it in a URL);
 * an unknown or revoked link says only that it does not work.
 */
export function ClientPage() {
  const [token] = useState(() => window.location.hash.slice(1));
  const { data, error } = useClientPage(token);
  const t = useClientPageTexts();

  // Until the invoice says the client's language, the browser's.
  useEffect(() => setLanguage(data?.language ?? browserLanguage()), [data?.language]);

  if (!token || (error && describeError(error).code === 'not_found')) {
    return (
      <Frame>
        <PageHeading>{t('goneTitle')}</PageHeading>
        <p className="mt-2 text-sm text-stone-700">{t('gone')}</p>
      </Frame>
    );
  }
  if (error) {
    return (
      <Frame>
        <PageHeading>{t('loading')}</PageHeading>
        <Alert className="mt-4">{describeError(error).message}</Alert>
      </Frame>
    );
  }
  if (!data) {
    // No heading yet: the page's heading is the invoice's (or that the link does not work).
    return (
      <Frame>
        <p role="status" aria-busy="true" className="h-64 text-sm text-stone-600">
          {t('loading')}
        </p>
      </Frame>
    );
  }
  return data.kind === 'estimate' ? <EstimateView token={token} page={data} /> : <InvoiceView token={token} page={data} />;
}

/**
 * The server's names in the client's language (src/modules/billing/invoices/format.ts documentFilename,
 * e-invoice-data.ts eInvoiceFilename), used only when the download's Content-Disposition is unreadable.
 */
const invoiceFilename = (word: string, number: string, format: EInvoiceName | 'pdf') =>
  `${word}-${fileSafe(number)}${format === 'pdf' ? '.pdf' : format === 'facturx' ? '-facturx.pdf' : `-${format}.xml`}`;

function InvoiceView({ token, page }: { token: string; page: ClientInvoice }) {
  const t = useClientPageTexts();
  // Outside the signed-in shell, which does this for its pages: the lines stack on a phone.
  useStackedTables();
  const { invoice: i, seller, client } = page;
  const format = useMemo(() => createFormat({ locale: LOCALES[page.language], timeZone: 'UTC', durationStyle: 'clock' }), [page.language]);
  const money = (n: number) => format.money(n, i.currency);
  const download = useDownloadPdf(token);
  const eInvoice = useDownloadEInvoice(token);
  const range = (a: string | null, b: string | null) => (a || b ? t('range', { from: a ? format.day(a) : '…', to: b ? format.day(b) : '…' }) : null);
  const period = range(i.period_start, i.period_end);
  const servicePeriod = range(i.service_period_start, i.service_period_end);

  return (
    <Frame>
      <div className="flex flex-col gap-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <DocumentTitle title={t('title', { number: i.number })} subject={i.subject} state={t(`states.${i.state}`)} />
          <div className="flex flex-col items-start gap-2 sm:items-end">
            <p className="text-sm text-stone-600">{t('amountDue')}</p>
            <p className="text-2xl font-semibold text-stone-900 tabular-nums">{money(i.due_amount)}</p>
            <Button variant="primary" isPending={download.isPending} onPress={() => download.mutate(invoiceFilename(t('files.invoice'), i.number, 'pdf'))}>
              {t('downloadPdf')}
            </Button>
            {page.e_invoices.length > 0 && (
              <div className="flex flex-wrap items-center gap-2 sm:justify-end" role="group" aria-label={t('eInvoices')}>
                <span className="text-sm text-stone-600">{t('eInvoices')}:</span>
                {page.e_invoices.map((format) => (
                  <Button
                    key={format}
                    variant="secondary"
                    isPending={eInvoice.isPending && eInvoice.variables?.format === format}
                    onPress={() => eInvoice.mutate({ format, fallback: invoiceFilename(t('files.invoice'), i.number, format) })}
                  >
                    {t(`eInvoice.${format}`)}
                  </Button>
                ))}
              </div>
            )}
          </div>
        </div>
        {download.error && <Alert>{describeError(download.error).message}</Alert>}
        {eInvoice.error && <Alert>{describeError(eInvoice.error).message}</Alert>}

        <Parties seller={seller} client={client} />

        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
          <Field label={t('issued')}>{format.day(i.issue_date)}</Field>
          <Field label={t('due')}>{format.day(i.due_date)}</Field>
          {i.purchase_order && <Field label={t('purchaseOrder')}>{i.purchase_order}</Field>}
          {period && <Field label={t('period')}>{period}</Field>}
          {servicePeriod && <Field label={t('servicePeriod')}>{servicePeriod}</Field>}
        </dl>

        <LinesAndTotals
          caption={t('lineCaption')}
          lines={i.line_items}
          totals={i}
          money={money}
          format={format}
          amountText={(l) => (l.effect === 'credit' ? t('credit', { amount: money(l.amount) }) : money(l.amount))}
          after={[
            { label: t('paid'), value: money(i.paid_amount) },
            { label: t('amountDue'), value: money(i.due_amount), strong: true },
          ]}
        />

        <section aria-labelledby="client-payments" className="flex flex-col gap-2">
          <h2 id="client-payments" className="text-lg font-semibold text-stone-900">
            {t('payments')}
          </h2>
          {page.payments.length === 0 ? (
            <p className="text-sm text-stone-600">{t('noPayments')}</p>
          ) : (
            <ul className="divide-y divide-stone-100 rounded-lg border border-stone-200 text-sm">
              {page.payments.map((p, n) => (
                <li key={n} className="flex justify-between gap-4 px-3 py-2">
                  <span>{t('paymentOn', { date: format.day(p.paid_date) })}</span>
                  <span className="tabular-nums">{money(p.amount)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <Notes text={i.notes} />
      </div>
    </Frame>
  );
}
