import { useQuery } from '@tanstack/react-query';
import { lazy, useState, type ReactNode } from 'react';
import { DialogTrigger, Link as AriaLink } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { holds, isAdministrator } from '../../api/access.ts';
import { describeError } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { PdfSection } from '../../ui/PdfSection.tsx';
import { invoiceQuery, pdfHref, useDeleteInvoice, useTransition, type Invoice, type MessageEvent } from './api.ts';
import { InvoiceLines } from './InvoiceLines.tsx';
import { eventsFor, MessageDialog } from './MessageDialog.tsx';
import { MessageHistory } from './MessageHistory.tsx';
import { PaymentDialog } from './PaymentDialog.tsx';
import { PaymentsList } from './PaymentsList.tsx';
import { StateBadge } from './StateBadge.tsx';
import { AttachmentsPanel } from './AttachmentsPanel.tsx';
import { ClientLinkPanel } from './ClientLinkPanel.tsx';
import { RetainerPanel } from './RetainerPanel.tsx';
import { invoiceRetainersQuery } from './retainer-api.ts';

import { EInvoiceMenu, EInvoiceOutcome, type EInvoiceResult } from './EInvoice.tsx';
import { useInvoiceTexts } from './texts.ts';

// pdf.js is large: its chunk loads when the preview is asked for, never with the page.
const PdfPreview = lazy(() => import('./PdfPreview.tsx'));

/** The API's payment terms (src/modules/catalog/clients/rules.ts PAYMENT_TERMS); their names are in texts.ts (`terms.*`). */
const TERMS = ['upon_receipt', 'net_15', 'net_30', 'net_45', 'net_60', 'custom'] as const;
const isTerm = (term: string): term is (typeof TERMS)[number] => (TERMS as readonly string[]).includes(term);

/** One invoice: its fields, lines and the server's totals, the PDF, and (on request) the messages sent about it. */
export function InvoicePage() {
  const { id } = useParams() as { id: string };
  const { data: invoice, error } = useQuery(invoiceQuery(id));
  const t = useInvoiceTexts();

  if (!invoice) {
    return (
      <div className="flex flex-col gap-6">
        <PageHeading>{t('invoice')}</PageHeading>
        {error ? (
          <Alert>{describeError(error).message}</Alert>
        ) : (
          <div role="status" className="text-stone-600">
            {t('loadingInvoice')}
          </div>
        )}
        <Link href="/invoices">{t('backToInvoices')}</Link>
      </div>
    );
  }
  return <InvoiceView invoice={invoice} />;
}

function InvoiceView({ invoice: i }: { invoice: Invoice }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const [showMessages, setShowMessages] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [round, setRound] = useState(0);
  const [message, setMessage] = useState<MessageEvent | null>(null);
  const [eInvoice, setEInvoice] = useState<EInvoiceResult | null>(null);
  const { workspace } = useWorkspaceSession();
  // Payments, closing, voiding and deleting are for owners and administrators (the server checks again).
  const isAdmin = isAdministrator(workspace);
  // Those who see retainers (the panel below, the same query) see the totals as the PDF prints them.
  const seesRetainers = holds(workspace, 'view_invoices');
  const { data: retainers } = useQuery({ ...invoiceRetainersQuery(i.id), enabled: seesRetainers });
  const mayRecordPayment = isAdmin && i.state === 'open' && i.due_amount > 0;
  // Nothing due on an open invoice (its retainer credit covers it): no payment can settle it, so it is marked paid.
  const mayMarkPaid = isAdmin && i.state === 'open' && i.due_amount === 0;
  const range = (a: string | null, b: string | null) => (a || b ? t('page.range', { from: a ? format.day(a) : '…', to: b ? format.day(b) : '…' }) : null);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Link href="/invoices" className="text-sm">
          {t('backToInvoices')}
        </Link>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <PageHeading>{t('invoiceNumbered', { number: i.number })}</PageHeading>
            <StateBadge state={i.state} />
          </div>
          <div className="flex flex-wrap gap-2">
            {/* Kept while open: the payment that settles the invoice must still close the dialog and say so. */}
            {(mayRecordPayment || paying) && (
              <DialogTrigger isOpen={paying} onOpenChange={setPaying}>
                <Button
                  onPress={() => {
                    setDone(null);
                    setEInvoice(null);
                    setRound((n) => n + 1);
                  }}
                >
                  {t('page.recordPayment')}
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
            {mayMarkPaid && (
              <MarkPaidButton
                invoice={i}
                onStart={() => {
                  setDone(null);
                  setFailed(null);
                  setEInvoice(null);
                }}
                onDone={setDone}
                onError={setFailed}
              />
            )}
            {eventsFor(i).map((event) => (
              <Button
                key={event}
                variant={event === 'send' && i.state === 'draft' ? 'primary' : 'secondary'}
                onPress={() => {
                  setDone(null);
                  setEInvoice(null);
                  setRound((n) => n + 1);
                  setMessage(event);
                }}
              >
                {event === 'send' && i.state !== 'draft' ? t('page.sendAgain') : t(`message.events.${event}.action`)}
              </Button>
            ))}
            {i.state === 'draft' && (
              <AriaLink href={`/invoices/${i.id}/edit`} className={buttonClass('secondary')}>
                {t('page.edit')}
              </AriaLink>
            )}
            <a href={pdfHref(i.id)} download={`invoice-${i.number}.pdf`} className={buttonClass('secondary')}>
              {t('page.downloadPdf')}
            </a>
            <EInvoiceMenu
              invoice={i}
              onStart={() => {
                setDone(null);
                setEInvoice(null);
              }}
              onResult={setEInvoice}
            />
          </div>
        </div>
        {i.subject && <p className="text-stone-700">{i.subject}</p>}
      </div>
      {done && <Alert tone="success">{done}</Alert>}
      {failed && <Alert>{failed}</Alert>}
      {eInvoice && <EInvoiceOutcome invoice={i} result={eInvoice} />}
      {/* One dialog for the three messages, fresh per opening. */}
      {message && (
        <MessageDialog
          key={round}
          invoice={i}
          event={message}
          onClose={() => setMessage(null)}
          onDone={(text) => {
            setDone(text);
            setMessage(null);
            setShowMessages(true);
          }}
        />
      )}

      <section aria-labelledby="invoice-details" className="rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
        <h2 id="invoice-details" className="sr-only">
          {t('page.details')}
        </h2>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
          <Field label={t('page.client')}>{i.client.name}</Field>
          <Field label={t('page.issueDate')}>{format.day(i.issue_date)}</Field>
          <Field label={t('page.dueDate')}>{format.day(i.due_date)}</Field>
          {i.payment_term && <Field label={t('page.paymentTerms')}>{isTerm(i.payment_term) ? t(`terms.${i.payment_term}`) : i.payment_term}</Field>}
          {i.purchase_order && <Field label={t('page.purchaseOrder')}>{i.purchase_order}</Field>}
          {range(i.period_start, i.period_end) && <Field label={t('page.period')}>{range(i.period_start, i.period_end)}</Field>}
          {range(i.service_period_start, i.service_period_end) && (
            <Field label={t('page.servicePeriod')}>{range(i.service_period_start, i.service_period_end)}</Field>
          )}
          <Field label={t('page.currency')}>{i.currency}</Field>
          {i.creator && <Field label={t('page.createdBy')}>{i.creator.name}</Field>}
        </dl>
        {i.notes && <p className="mt-4 border-t border-stone-100 pt-3 text-sm whitespace-pre-line text-stone-800">{i.notes}</p>}
      </section>

      <section aria-labelledby="invoice-lines" className="flex flex-col gap-2">
        <h2 id="invoice-lines" className="text-lg font-semibold text-stone-900">
          {t('page.lines')}
        </h2>
        <InvoiceLines invoice={i} headingId="invoice-lines" printed={retainers?.printed} />
      </section>
      <PaymentsList
        invoice={i}
        onDone={(text) => {
          setDone(text);
          setFailed(null);
          setEInvoice(null);
        }}
      />
      {seesRetainers && <RetainerPanel invoice={i} />}

      <AttachmentsPanel invoice={i} />
      <ClientLinkPanel invoice={i} />

      <section aria-labelledby="invoice-messages" className="flex flex-col gap-2">
        <h2 id="invoice-messages" className="text-lg font-semibold text-stone-900">
          {t('page.messages')}
        </h2>
        {i.sent_at && <p className="text-sm text-stone-700">{t('page.sentAt', { date: format.dateTime(i.sent_at) })}</p>}
        {showMessages ? (
          <MessageHistory invoiceId={i.id} />
        ) : (
          <div>
            <button type="button" className={buttonClass('secondary')} onClick={() => setShowMessages(true)}>
              {t('page.showMessages')}
            </button>
          </div>
        )}
      </section>

      <PdfSection id="invoice-pdf" heading={t('page.pdf')} showLabel={t('page.showPdf')} loadingLabel={t('page.loadingPdfViewer')}>
        <PdfPreview invoice={i} />
      </PdfSection>

      {isAdmin && (i.state === 'open' || i.state === 'draft') && <AdminActions invoice={i} onDone={setDone} />}
    </div>
  );
}

/** Marks an open invoice with nothing due paid: nothing to confirm, as nothing is recorded but the state. */
function MarkPaidButton(props: { invoice: Invoice; onStart: () => void; onDone: (message: string) => void; onError: (message: string) => void }) {
  const t = useInvoiceTexts();
  const transition = useTransition(props.invoice.id, 'mark-paid');
  const keyFor = useIdempotencyKey();
  const run = () => {
    props.onStart();
    transition.mutateAsync(keyFor({ action: 'mark-paid', id: props.invoice.id })).then(
      () => props.onDone(t('page.markPaid.done')),
      (error: unknown) => props.onError(describeError(error).message),
    );
  };
  return (
    <Button variant="primary" isPending={transition.isPending} onPress={run}>
      {t('page.markPaid.label')}
    </Button>
  );
}

type Action = 'close' | 'void' | 'delete';

/** Owners and administrators: close or void an open invoice, delete a draft (each asks first). */
function AdminActions({ invoice: i, onDone }: { invoice: Invoice; onDone: (message: string) => void }) {
  const t = useInvoiceTexts();
  const actions = i.state === 'open' ? (['close', 'void'] as const) : (['delete'] as const);
  return (
    <section aria-labelledby="invoice-admin" className="flex flex-col gap-2 border-t border-stone-200 pt-4">
      <h2 id="invoice-admin" className="text-lg font-semibold text-stone-900">
        {t('page.administration')}
      </h2>
      <div className="flex flex-wrap gap-2">
        {actions.map((a) => (
          <Confirm key={a} invoice={i} action={a} onDone={onDone} />
        ))}
      </div>
    </section>
  );
}

function Confirm({ invoice: i, action, onDone }: { invoice: Invoice; action: Action; onDone: (message: string) => void }) {
  const navigate = useNavigate();
  const t = useInvoiceTexts();
  const [open, setOpen] = useState(false);
  const transition = useTransition(i.id, action === 'delete' ? 'close' : action);
  const remove = useDeleteInvoice(i.id);
  const keyFor = useIdempotencyKey();
  const mutation = action === 'delete' ? remove : transition;
  const run = () => {
    if (action === 'delete') {
      remove.mutateAsync().then(
        () => navigate('/invoices'),
        () => undefined, // shown in the dialog (mutation.error)
      );
    } else {
      // Not mutate's own onSuccess: the new state removes these buttons, and the message must still show.
      transition.mutateAsync(keyFor({ action, id: i.id })).then(
        () => onDone(t(action === 'close' ? 'actions.close.done' : 'actions.void.done')),
        () => undefined, // shown in the dialog (mutation.error)
      );
    }
  };
  return (
    <DialogTrigger isOpen={open} onOpenChange={(o) => {
      mutation.reset();
      setOpen(o);
    }}>
      <Button variant="danger">{t(`actions.${action}.label`)}</Button>
      <Dialog title={t(`actions.${action}.title`, { number: i.number })}>
        <div className="flex flex-col gap-4 text-sm">
          <p className="text-stone-800">{t(`actions.${action}.text`)}</p>
          {mutation.error && <Alert>{describeError(mutation.error).message}</Alert>}
          <Button variant="danger" onPress={run} isPending={mutation.isPending}>
            {t(`actions.${action}.confirm`)}
          </Button>
        </div>
      </Dialog>
    </DialogTrigger>
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
