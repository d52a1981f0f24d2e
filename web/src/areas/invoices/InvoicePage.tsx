import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { DialogTrigger, useLocale } from 'react-aria-components';
import { useParams } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { focusRingCss } from '../../ui/styles.ts';
import { invoiceQuery, pdfHref, type Invoice } from './api.ts';
import { dateLabel, formatMoney } from './format.ts';
import { MessageHistory } from './MessageHistory.tsx';
import { PaymentDialog } from './PaymentDialog.tsx';
import { StateBadge } from './StateBadge.tsx';

const TERMS: Record<string, string> = {
  upon_receipt: 'Upon receipt',
  net_15: 'Net 15',
  net_30: 'Net 30',
  net_45: 'Net 45',
  net_60: 'Net 60',
  custom: 'Custom',
};

/** One invoice: its fields, lines and the server's totals, the PDF, and (on request) the messages sent about it. */
export function InvoicePage() {
  const { id } = useParams() as { id: string };
  const { data: invoice, error } = useQuery(invoiceQuery(id));

  if (!invoice) {
    return (
      <div className="flex flex-col gap-6">
        <PageHeading>Invoice</PageHeading>
        {error ? (
          <Alert>{describeError(error).message}</Alert>
        ) : (
          <div role="status" className="text-stone-600">
            Loading the invoice…
          </div>
        )}
        <Link href="/invoices">Back to invoices</Link>
      </div>
    );
  }
  return <InvoiceView invoice={invoice} />;
}

function InvoiceView({ invoice: i }: { invoice: Invoice }) {
  const { locale } = useLocale();
  const [showMessages, setShowMessages] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [round, setRound] = useState(0);
  const { workspace } = useWorkspaceSession();
  // Payments are the web app's, for owners and administrators (the server checks again).
  const mayRecordPayment = ['owner', 'administrator'].includes(workspace.role) && i.state === 'open';
  const money = (n: number) => formatMoney(n, i.currency, locale);
  const range = (a: string | null, b: string | null) => (a || b ? `${a ? dateLabel(a, locale) : '…'} – ${b ? dateLabel(b, locale) : '…'}` : null);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Link href="/invoices" className="text-sm">
          Back to invoices
        </Link>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <PageHeading title={`Invoice ${i.number}`}>Invoice {i.number}</PageHeading>
            <StateBadge state={i.state} />
          </div>
          <div className="flex flex-wrap gap-2">
            {/* Kept while open: the payment that settles the invoice must still close the dialog and say so. */}
            {(mayRecordPayment || paying) && (
              <DialogTrigger isOpen={paying} onOpenChange={setPaying}>
                <Button
                  onPress={() => {
                    setDone(null);
                    setRound((n) => n + 1);
                  }}
                >
                  Record a payment
                </Button>
                {/* Mounted while closed too: a fresh one per opening offers the amount due now, with no old error. */}
                <PaymentDialog
                  key={round}
                  invoice={i}
                  onDone={(message) => {
                    setDone(message);
                    setPaying(false);
                  }}
                />
              </DialogTrigger>
            )}
            <a href={pdfHref(i.id)} download={`invoice-${i.number}.pdf`} className={buttonClass('secondary')}>
              Download PDF
            </a>
          </div>
        </div>
        {i.subject && <p className="text-stone-700">{i.subject}</p>}
      </div>
      {done && <Alert tone="success">{done}</Alert>}

      <section aria-labelledby="invoice-details" className="rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
        <h2 id="invoice-details" className="sr-only">
          Details
        </h2>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
          <Field label="Client">{i.client.name}</Field>
          <Field label="Issue date">{dateLabel(i.issue_date, locale)}</Field>
          <Field label="Due date">{dateLabel(i.due_date, locale)}</Field>
          {i.payment_term && <Field label="Payment terms">{TERMS[i.payment_term] ?? i.payment_term}</Field>}
          {i.purchase_order && <Field label="Purchase order">{i.purchase_order}</Field>}
          {range(i.period_start, i.period_end) && <Field label="Period">{range(i.period_start, i.period_end)}</Field>}
          {range(i.service_period_start, i.service_period_end) && (
            <Field label="Service period">{range(i.service_period_start, i.service_period_end)}</Field>
          )}
          <Field label="Currency">{i.currency}</Field>
          {i.creator && <Field label="Created by">{i.creator.name}</Field>}
        </dl>
        {i.notes && <p className="mt-4 border-t border-stone-100 pt-3 text-sm whitespace-pre-line text-stone-800">{i.notes}</p>}
      </section>

      <section aria-labelledby="invoice-lines" className="flex flex-col gap-2">
        <h2 id="invoice-lines" className="text-lg font-semibold text-stone-900">
          Lines
        </h2>
        {/* Scrolls sideways at 390 px; focusable so the keyboard can scroll it too (nothing in it takes focus). */}
        <div tabIndex={0} role="region" aria-labelledby="invoice-lines" className={`relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs ${focusRingCss}`}>
          <table className="w-full min-w-[36rem] border-collapse text-sm">
            <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">Description</th>
                <th scope="col" className="px-3 py-2 text-right">Quantity</th>
                <th scope="col" className="px-3 py-2 text-right">Unit price</th>
                <th scope="col" className="px-3 py-2 text-right">Amount</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {i.line_items.map((l) => (
                <tr key={l.id} className="align-top">
                  <th scope="row" className="px-3 py-2.5 text-left font-normal">
                    <span className="block text-xs text-stone-600">{l.kind}</span>
                    <span className="block whitespace-pre-line text-stone-900">{l.description || '—'}</span>
                    {/* A line's tax flags matter only where the invoice has that tax. */}
                    {((l.taxed && i.tax > 0) || (l.taxed2 && i.tax2 > 0)) && (
                      <span className="block text-xs text-stone-600">
                        {[l.taxed && i.tax > 0 && 'Tax', l.taxed2 && i.tax2 > 0 && 'Tax 2'].filter(Boolean).join(', ')}
                      </span>
                    )}
                  </th>
                  <td className="px-3 py-2.5 text-right tabular-nums">{new Intl.NumberFormat(locale, { maximumFractionDigits: 4 }).format(l.quantity)}</td>
                  <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{money(l.unit_price)}</td>
                  <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">
                    {l.effect === 'credit' ? <>Credit {money(l.amount)}</> : money(l.amount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {/* The server's totals, as they are: the browser adds nothing. */}
        <dl aria-label="Totals" className="ml-auto grid w-full max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
          <Total label="Subtotal" value={money(i.subtotal)} />
          {i.discount > 0 && <Total label={`Discount (${i.discount}%)`} value={`−${money(i.discount_amount)}`} />}
          {i.tax > 0 && <Total label={`Tax (${i.tax}%)`} value={money(i.tax_amount)} />}
          {i.tax2 > 0 && <Total label={`Tax 2 (${i.tax2}%)`} value={money(i.tax2_amount)} />}
          <Total label="Amount" value={money(i.amount)} strong />
          <Total label="Paid" value={money(i.paid_amount)} />
          <Total label="Amount due" value={money(i.due_amount)} strong />
        </dl>
      </section>

      <section aria-labelledby="invoice-messages" className="flex flex-col gap-2">
        <h2 id="invoice-messages" className="text-lg font-semibold text-stone-900">
          Messages
        </h2>
        {i.sent_at && <p className="text-sm text-stone-700">Sent {new Date(i.sent_at).toLocaleString(locale)}</p>}
        {showMessages ? (
          <MessageHistory invoiceId={i.id} />
        ) : (
          <div>
            <button type="button" className={buttonClass('secondary')} onClick={() => setShowMessages(true)}>
              Show message history
            </button>
          </div>
        )}
      </section>
    </div>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold text-stone-600 uppercase">{label}</dt>
      <dd className="mt-0.5 text-stone-900">{children}</dd>
    </div>
  );
}

function Total({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <>
      <dt className={strong ? 'font-semibold text-stone-900' : 'text-stone-700'}>{label}</dt>
      <dd className={`text-right tabular-nums ${strong ? 'font-semibold text-stone-900' : 'text-stone-800'}`}>{value}</dd>
    </>
  );
}
