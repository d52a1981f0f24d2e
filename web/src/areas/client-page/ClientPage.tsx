import { useEffect, useMemo, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { createFormat } from '../../ui/format.ts';
import { LOCALES, browserLanguage, setLanguage } from '../../ui/i18n.ts';
import { DefinitionField as Field, TotalRow as Total } from '../../ui/Definitions.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { useStackedTables } from '../../ui/stacked-tables.ts';
import { focusRingCss } from '../../ui/styles.ts';
import { useClientPage, useDownloadEInvoice, useDownloadPdf, type ClientInvoice, type EInvoiceName } from './api.ts';
import { EstimateView } from './EstimateView.tsx';
import { Frame, Party } from './parts.tsx';
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

/** The server's names (src/modules/billing/invoices/e-invoice-data.ts eInvoiceFilename). */
const eInvoiceFilename = (number: string, format: EInvoiceName) =>
  format === 'facturx' ? `invoice-${number}-facturx.pdf` : `invoice-${number}-${format}.xml`;

function InvoiceView({ token, page }: { token: string; page: ClientInvoice }) {
  const t = useClientPageTexts();
  // Outside the signed-in shell, which does this for its pages: the lines stack on a phone.
  useStackedTables();
  const { invoice: i, seller, client } = page;
  const format = useMemo(() => createFormat({ locale: LOCALES[page.language], timeZone: 'UTC', durationStyle: 'clock' }), [page.language]);
  const money = (n: number) => format.money(n, i.currency);
  const percent = (n: number) => format.number(n, 4);
  const download = useDownloadPdf(token);
  const eInvoice = useDownloadEInvoice(token);
  const range = (a: string | null, b: string | null) => (a || b ? t('range', { from: a ? format.day(a) : '…', to: b ? format.day(b) : '…' }) : null);
  const period = range(i.period_start, i.period_end);
  const servicePeriod = range(i.service_period_start, i.service_period_end);

  return (
    <Frame>
      <div className="flex flex-col gap-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="flex flex-col gap-1">
            <PageHeading>{t('title', { number: i.number })}</PageHeading>
            {i.subject && <p className="text-stone-700">{i.subject}</p>}
            <p>
              <span className="inline-flex rounded-full bg-stone-100 px-2.5 py-0.5 text-xs font-semibold text-stone-800">{t(`states.${i.state}`)}</span>
            </p>
          </div>
          <div className="flex flex-col items-start gap-2 sm:items-end">
            <p className="text-sm text-stone-600">{t('amountDue')}</p>
            <p className="text-2xl font-semibold text-stone-900 tabular-nums">{money(i.due_amount)}</p>
            <Button variant="primary" isPending={download.isPending} onPress={() => download.mutate(`invoice-${i.number}.pdf`)}>
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
                    onPress={() => eInvoice.mutate({ format, filename: eInvoiceFilename(i.number, format) })}
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

        <div className="grid gap-4 text-sm sm:grid-cols-2">
          <Party label={t('from')} name={seller.name} lines={[seller.address, seller.email, seller.phone, seller.tax_id ? t('taxId', { id: seller.tax_id }) : null]} />
          <Party label={t('to')} name={client.name} lines={[client.address]} />
        </div>

        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
          <Field label={t('issued')}>{format.day(i.issue_date)}</Field>
          <Field label={t('due')}>{format.day(i.due_date)}</Field>
          {i.purchase_order && <Field label={t('purchaseOrder')}>{i.purchase_order}</Field>}
          {period && <Field label={t('period')}>{period}</Field>}
          {servicePeriod && <Field label={t('servicePeriod')}>{servicePeriod}</Field>}
        </dl>

        <section aria-labelledby="client-lines" className="flex flex-col gap-2">
          <h2 id="client-lines" className="text-lg font-semibold text-stone-900">
            {t('lines')}
          </h2>
          <div tabIndex={0} role="region" aria-labelledby="client-lines" className={`overflow-x-auto rounded-lg border border-stone-200 ${focusRingCss}`}>
            <table data-stack className="w-full min-w-[32rem] border-collapse text-sm">
              <caption className="sr-only">{t('lineCaption')}</caption>
              <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2">{t('description')}</th>
                  <th scope="col" className="px-3 py-2 text-right">{t('quantity')}</th>
                  <th scope="col" className="px-3 py-2 text-right">{t('unitPrice')}</th>
                  <th scope="col" className="px-3 py-2 text-right">{t('amount')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100">
                {i.line_items.map((l, n) => (
                  <tr key={n} className="align-top">
                    <th scope="row" className="px-3 py-2.5 text-left font-normal">
                      <span className="block text-xs text-stone-600">{l.kind}</span>
                      <span className="block whitespace-pre-line text-stone-900">{l.description || '—'}</span>
                    </th>
                    <td className="px-3 py-2.5 text-right tabular-nums">{format.number(l.quantity, 4)}</td>
                    <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{money(l.unit_price)}</td>
                    <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{l.effect === 'credit' ? t('credit', { amount: money(l.amount) }) : money(l.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <dl aria-label={t('totals')} className="ml-auto grid w-full max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
            <Total label={t('subtotal')} value={money(i.subtotal)} />
            {i.discount > 0 && <Total label={t('discount', { percent: percent(i.discount) })} value={`−${money(i.discount_amount)}`} />}
            {i.tax > 0 && <Total label={t('tax', { percent: percent(i.tax) })} value={money(i.tax_amount)} />}
            {i.tax2 > 0 && <Total label={t('tax2', { percent: percent(i.tax2) })} value={money(i.tax2_amount)} />}
            <Total label={t('total')} value={money(i.amount)} strong />
            <Total label={t('paid')} value={money(i.paid_amount)} />
            <Total label={t('amountDue')} value={money(i.due_amount)} strong />
          </dl>
        </section>

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

        {i.notes && (
          <section aria-labelledby="client-notes" className="flex flex-col gap-2">
            <h2 id="client-notes" className="text-lg font-semibold text-stone-900">
              {t('notes')}
            </h2>
            <p className="text-sm whitespace-pre-line text-stone-800">{i.notes}</p>
          </section>
        )}
      </div>
    </Frame>
  );
}
