import { useQuery } from '@tanstack/react-query';
import { lazy, useState, type ReactNode } from 'react';
import { DialogTrigger, Link as AriaLink } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { isAdministrator } from '../../api/access.ts';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { documentTotals, lineTaxes, LinesTable } from '../../ui/LinesTable.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { PdfSection } from '../../ui/PdfSection.tsx';
import { kindText } from '../../ui/kinds.ts';
import { estimateQuery, pdfHref, useConvertEstimate, useDeleteEstimate, useMoveEstimate, type Estimate } from './api.ts';
import { ClientLinkPanel } from './ClientLinkPanel.tsx';
import { SendDialog } from './SendDialog.tsx';
import { StateBadge } from './StateBadge.tsx';
import { useEstimateTexts } from './texts.ts';

// pdf.js is large: its chunk loads when the preview is asked for, never with the page.
const PdfPreview = lazy(() => import('./PdfPreview.tsx'));

/** One estimate: its fields, lines and the server's totals, the PDF, and what its state allows (send, answers, convert). */
export function EstimatePage() {
  const { id } = useParams() as { id: string };
  const { data: estimate, error } = useQuery(estimateQuery(id));
  const t = useEstimateTexts();
  if (!estimate) {
    return (
      <div className="flex flex-col gap-6">
        <PageHeading>{t('estimate')}</PageHeading>
        {error ? (
          <Alert>{describeError(error).message}</Alert>
        ) : (
          <div role="status" className="text-stone-600">
            {t('loadingOne')}
          </div>
        )}
        <Link href="/estimates">{t('backToEstimates')}</Link>
      </div>
    );
  }
  return <EstimateView estimate={estimate} />;
}

type Confirmed = 'accept' | 'decline' | 'convert' | 'delete';

function EstimateView({ estimate: e }: { estimate: Estimate }) {
  const t = useEstimateTexts();
  const format = useFormat();
  const [done, setDone] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const { workspace } = useWorkspaceSession();
  const move = useMoveEstimate(e.id);
  const money = (n: number) => format.money(n, e.currency);
  const taxNote = { both: t('lines.taxedBoth'), tax: t('lines.taxed'), tax2: t('lines.taxed2') };
  const editable = e.state === 'draft' || e.state === 'sent';
  const answer = (at: string | null) => (at ? `${format.dateTime(at)} (${e.answered_by_client ? t('page.byClient') : t('page.recorded')})` : null);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Link href="/estimates" className="text-sm">
          {t('backToEstimates')}
        </Link>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <PageHeading>{t('estimateNumbered', { number: e.number })}</PageHeading>
            <StateBadge state={e.state} />
          </div>
          <div className="flex flex-wrap gap-2">
            {editable && (
              <Button variant={e.state === 'draft' ? 'primary' : 'secondary'} onPress={() => (setDone(null), setSending(true))}>
                {e.state === 'draft' ? t('page.send') : t('page.sendAgain')}
              </Button>
            )}
            {e.state === 'sent' && <Confirm estimate={e} action="accept" onDone={setDone} />}
            {e.state === 'sent' && <Confirm estimate={e} action="decline" onDone={setDone} />}
            {e.state === 'accepted' && !e.invoice && <Confirm estimate={e} action="convert" onDone={setDone} />}
            {e.state === 'declined' && (
              <Button variant="secondary" isPending={move.isPending} onPress={() => move.mutate('reopen', { onSuccess: () => setDone(t('page.reopened')) })}>
                {t('page.reopen')}
              </Button>
            )}
            {editable && (
              <AriaLink href={`/estimates/${e.id}/edit`} className={buttonClass('secondary')}>
                {t('page.edit')}
              </AriaLink>
            )}
            <a href={pdfHref(e.id)} download={`estimate-${e.number}.pdf`} className={buttonClass('secondary')}>
              {t('page.downloadPdf')}
            </a>
          </div>
        </div>
        {e.subject && <p className="text-stone-700">{e.subject}</p>}
      </div>
      {done && <Alert tone="success">{done}</Alert>}
      {move.error && <Alert>{describeError(move.error).message}</Alert>}
      {sending && (
        <SendDialog
          estimate={e}
          onClose={() => setSending(false)}
          onDone={() => {
            setSending(false);
            setDone(t('page.sent'));
          }}
        />
      )}

      <section aria-labelledby="estimate-details" className="rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
        <h2 id="estimate-details" className="sr-only">
          {t('page.details')}
        </h2>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
          <Field label={t('page.client')}>{e.client.name}</Field>
          <Field label={t('page.issueDate')}>{format.day(e.issue_date)}</Field>
          <Field label={t('page.validUntil')}>{e.valid_until ? format.day(e.valid_until) : t('page.noLimit')}</Field>
          <Field label={t('page.currency')}>{e.currency}</Field>
          {e.sent_at && <Field label={t('page.sentAt')}>{format.dateTime(e.sent_at)}</Field>}
          {e.accepted_at && <Field label={t('page.acceptedAt')}>{answer(e.accepted_at)}</Field>}
          {e.declined_at && <Field label={t('page.declinedAt')}>{answer(e.declined_at)}</Field>}
          {e.decline_reason && (
            <Field label={t('page.declineReason')}>
              <span className="whitespace-pre-line">{e.decline_reason}</span>
            </Field>
          )}
          {e.invoice && (
            <Field label={t('page.invoice')}>
              <Link href={`/invoices/${e.invoice.id}`}>{t('page.invoiceLink', { number: e.invoice.number })}</Link>
            </Field>
          )}
          {e.creator && <Field label={t('page.createdBy')}>{e.creator.name}</Field>}
        </dl>
        {e.notes && <p className="mt-4 border-t border-stone-100 pt-3 text-sm whitespace-pre-line text-stone-800">{e.notes}</p>}
      </section>

      <section aria-labelledby="estimate-lines" className="flex flex-col gap-2">
        <h2 id="estimate-lines" className="text-lg font-semibold text-stone-900">
          {t('page.lines')}
        </h2>
        <LinesTable
          headingId="estimate-lines"
          columns={{ description: t('lines.description'), quantity: t('lines.quantity'), unitPrice: t('lines.unitPrice'), amount: t('lines.amount') }}
          totalsLabel={t('totals.label')}
          totals={documentTotals(
            e,
            money,
            {
              subtotal: t('totals.subtotal'),
              discount: (p) => t('totals.discount', { percent: p }),
              tax: (p) => t('totals.tax', { percent: p }),
              tax2: (p) => t('totals.tax2', { percent: p }),
              amount: t('totals.amount'),
            },
            (n) => format.number(n, 4),
          )}
          lines={e.line_items.map((l) => {
            const taxes = lineTaxes(l, e);
            return {
              id: l.id,
              // Sheaf's own kinds in the reader's language; any other kind as typed.
              kind: kindText(t, l.kind),
              description: l.description ?? '',
              note: taxes && taxNote[taxes],
              quantity: format.number(l.quantity, 4),
              unitPrice: money(l.unit_price),
              amount: money(l.amount),
            };
          })}
        />
      </section>

      <ClientLinkPanel estimate={e} />

      <PdfSection id="estimate-pdf" heading={t('page.pdf')} showLabel={t('page.showPdf')} loadingLabel={t('page.loadingPdfViewer')}>
        <PdfPreview estimate={e} />
      </PdfSection>

      {isAdministrator(workspace) && (
        <div className="border-t border-stone-200 pt-4">
          <Confirm estimate={e} action="delete" onDone={setDone} />
        </div>
      )}
    </div>
  );
}

/** Accept, decline, convert or delete, each asked first; the dialog shows a refusal (a 409 naming the state). */
function Confirm({ estimate: e, action, onDone }: { estimate: Estimate; action: Confirmed; onDone: (message: string) => void }) {
  const t = useEstimateTexts();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const move = useMoveEstimate(e.id);
  const convert = useConvertEstimate(e.id);
  const remove = useDeleteEstimate(e.id);
  const mutation = action === 'convert' ? convert : action === 'delete' ? remove : move;
  const run = () => {
    // Not mutate's own onSuccess: the new state removes this button, and the outcome must still show.
    const settle = () => undefined; // shown in the dialog (mutation.error)
    if (action === 'convert') convert.mutateAsync().then(({ invoice }) => navigate(`/invoices/${invoice.id}`), settle);
    else if (action === 'delete') remove.mutateAsync().then(() => navigate('/estimates'), settle);
    else move.mutateAsync(action).then(() => onDone(t(action === 'accept' ? 'page.accepted' : 'page.declined')), settle);
  };
  const danger = action === 'delete' || action === 'decline';
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        mutation.reset();
        setOpen(o);
      }}
    >
      <Button variant={danger ? (action === 'delete' ? 'danger' : 'secondary') : action === 'convert' ? 'primary' : 'secondary'}>{t(`page.${action}`)}</Button>
      <Dialog title={t(`confirm.${action}Title`, { number: e.number })}>
        <div className="flex flex-col gap-4 text-sm">
          <p className="text-stone-800">{t(`confirm.${action}Text`)}</p>
          {mutation.error && <Alert>{describeError(mutation.error).message}</Alert>}
          <Button variant={action === 'delete' ? 'danger' : 'primary'} onPress={run} isPending={mutation.isPending}>
            {t(`page.${action}`)}
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
