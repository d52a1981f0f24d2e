import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { DialogTrigger, useLocale, Link as AriaLink } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { isAdministrator } from '../../api/access.ts';
import { describeError } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { invoiceQuery, pdfHref, useDeleteInvoice, useTransition, type Invoice, type MessageEvent } from './api.ts';
import { dateLabel } from './format.ts';
import { InvoiceLines } from './InvoiceLines.tsx';
import { EVENT_TITLES, eventsFor, MessageDialog } from './MessageDialog.tsx';
import { MessageHistory } from './MessageHistory.tsx';
import { PaymentDialog } from './PaymentDialog.tsx';
import { StateBadge } from './StateBadge.tsx';

// pdf.js is large: its chunk loads when the preview is asked for, never with the page.
const PdfPreview = lazy(() => import('./PdfPreview.tsx'));

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
  const [message, setMessage] = useState<MessageEvent | null>(null);
  const [showPdf, setShowPdf] = useState(false);
  const { workspace } = useWorkspaceSession();
  // Payments, closing, voiding and deleting are for owners and administrators (the server checks again).
  const isAdmin = isAdministrator(workspace);
  const mayRecordPayment = isAdmin && i.state === 'open';
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
            {eventsFor(i).map((event) => (
              <Button
                key={event}
                variant={event === 'send' && i.state === 'draft' ? 'primary' : 'secondary'}
                onPress={() => {
                  setDone(null);
                  setRound((n) => n + 1);
                  setMessage(event);
                }}
              >
                {event === 'send' && i.state !== 'draft' ? 'Send again' : EVENT_TITLES[event].action}
              </Button>
            ))}
            {i.state === 'draft' && (
              <AriaLink href={`/invoices/${i.id}/edit`} className={buttonClass('secondary')}>
                Edit
              </AriaLink>
            )}
            <a href={pdfHref(i.id)} download={`invoice-${i.number}.pdf`} className={buttonClass('secondary')}>
              Download PDF
            </a>
          </div>
        </div>
        {i.subject && <p className="text-stone-700">{i.subject}</p>}
      </div>
      {done && <Alert tone="success">{done}</Alert>}
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
        <InvoiceLines invoice={i} headingId="invoice-lines" />
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

      <section aria-labelledby="invoice-pdf" className="flex flex-col gap-2">
        <h2 id="invoice-pdf" className="text-lg font-semibold text-stone-900">
          PDF
        </h2>
        {showPdf ? (
          <Suspense
            fallback={
              <p role="status" className="text-sm text-stone-600">
                Loading the PDF viewer…
              </p>
            }
          >
            <PdfPreview invoice={i} />
          </Suspense>
        ) : (
          <div>
            <button type="button" className={buttonClass('secondary')} onClick={() => setShowPdf(true)}>
              Show PDF preview
            </button>
          </div>
        )}
      </section>

      {isAdmin && (i.state === 'open' || i.state === 'draft') && <AdminActions invoice={i} onDone={setDone} />}
    </div>
  );
}

const ACTIONS = {
  close: {
    label: 'Close invoice',
    confirm: 'Close it',
    text: 'Closing writes the invoice off: it stays on record with what was paid, and no more payments or reminders are expected.',
    done: 'The invoice is closed.',
  },
  void: {
    label: 'Void invoice',
    confirm: 'Void it',
    text: 'Voiding cancels the invoice. Its time and expenses stay billed, as the record of what was invoiced.',
    done: 'The invoice is voided.',
  },
  delete: {
    label: 'Delete draft',
    confirm: 'Delete it',
    text: 'Deleting removes the draft. Its time and expenses become unbilled again, ready for another invoice.',
    done: '',
  },
} as const;

/** Owners and administrators: close or void an open invoice, delete a draft (each asks first). */
function AdminActions({ invoice: i, onDone }: { invoice: Invoice; onDone: (message: string) => void }) {
  const actions = i.state === 'open' ? (['close', 'void'] as const) : (['delete'] as const);
  return (
    <section aria-labelledby="invoice-admin" className="flex flex-col gap-2 border-t border-stone-200 pt-4">
      <h2 id="invoice-admin" className="text-lg font-semibold text-stone-900">
        Administration
      </h2>
      <div className="flex flex-wrap gap-2">
        {actions.map((a) => (
          <Confirm key={a} invoice={i} action={a} onDone={onDone} />
        ))}
      </div>
    </section>
  );
}

function Confirm({ invoice: i, action, onDone }: { invoice: Invoice; action: keyof typeof ACTIONS; onDone: (message: string) => void }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const transition = useTransition(i.id, action === 'delete' ? 'close' : action);
  const remove = useDeleteInvoice(i.id);
  const keyFor = useIdempotencyKey();
  const mutation = action === 'delete' ? remove : transition;
  const a = ACTIONS[action];
  const run = () => {
    if (action === 'delete') {
      remove.mutateAsync().then(
        () => navigate('/invoices'),
        () => undefined, // shown in the dialog (mutation.error)
      );
    } else {
      // Not mutate's own onSuccess: the new state removes these buttons, and the message must still show.
      transition.mutateAsync(keyFor({ action, id: i.id })).then(
        () => onDone(a.done),
        () => undefined, // shown in the dialog (mutation.error)
      );
    }
  };
  return (
    <DialogTrigger isOpen={open} onOpenChange={(o) => {
      mutation.reset();
      setOpen(o);
    }}>
      <Button variant="danger">{a.label}</Button>
      <Dialog title={`${a.label} ${i.number}?`}>
        <div className="flex flex-col gap-4 text-sm">
          <p className="text-stone-800">{a.text}</p>
          {mutation.error && <Alert>{describeError(mutation.error).message}</Alert>}
          <Button variant="danger" onPress={run} isPending={mutation.isPending}>
            {a.confirm}
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
