import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { isAdministrator } from '../../api/access.ts';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { focusRingCss } from '../../ui/styles.ts';
import { paymentsQuery, useDeletePayment, type Invoice, type Payment } from './api.ts';
import { MessageDialog } from './MessageDialog.tsx';
import { useInvoiceTexts } from './texts.ts';

/**
 * The invoice page's payments (issue 25 item 5): each recorded payment with its date,
 * amount, method and notes; owners and administrators delete a wrongly recorded one
 * (the server reopens a paid invoice that has money due again). When the invoice
 * becomes paid while the page is open, it offers a thank-you e-mail to the client.
 * Drafts take no payments, so they show no section. A deletion is said by the page's one notice
 * (`onDone`), which the next action replaces: a notice of its own here stayed beside the next one.
 */
export function PaymentsList({ invoice: i, onDone }: { invoice: Invoice; onDone: (message: string) => void }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const { workspace } = useWorkspaceSession();
  const mayDelete = isAdministrator(workspace) && (i.state === 'open' || i.state === 'paid');
  // Loaded beside the invoice (routes.tsx); nothing paid is no payments, whatever the list still says.
  const payments = useQuery(paymentsQuery(i.id));

  if (i.state === 'draft') return null;
  const list = i.paid_amount > 0 ? payments.data : [];
  return (
    <section aria-labelledby="invoice-payments" className="flex flex-col gap-2">
      <h2 id="invoice-payments" className="text-lg font-semibold text-stone-900">
        {t('payments.heading')}
      </h2>
      <ThankYouOffer invoice={i} onDone={onDone} />
      {payments.error && <Alert>{describeError(payments.error).message}</Alert>}
      {!list ? (
        <p role="status" className="text-sm text-stone-600">
          {t('payments.loading')}
        </p>
      ) : list.length === 0 ? (
        <p className="text-sm text-stone-700">{t('payments.none')}</p>
      ) : (
        <div tabIndex={0} role="region" aria-labelledby="invoice-payments" className={`overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs ${focusRingCss}`}>
          <table data-stack className="w-full border-collapse text-sm">
            <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">{t('payments.date')}</th>
                <th scope="col" className="px-3 py-2 text-right">{t('payments.amount')}</th>
                <th scope="col" className="px-3 py-2">{t('payments.method')}</th>
                <th scope="col" className="px-3 py-2">{t('payments.notes')}</th>
                {mayDelete && <th scope="col" className="px-3 py-2"><span className="sr-only">{t('payments.actions')}</span></th>}
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {list.map((p) => (
                <tr key={p.id} className="align-top">
                  <th scope="row" className="px-3 py-2.5 text-left font-normal whitespace-nowrap text-stone-900">{format.day(p.paid_date)}</th>
                  <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{format.money(p.amount, i.currency)}</td>
                  <td className="px-3 py-2.5">{p.method ? t(`methods.${p.method}`) : t('payments.noMethod')}</td>
                  <td className="px-3 py-2.5 break-words whitespace-pre-line text-stone-800">{p.notes || '—'}</td>
                  {mayDelete && (
                    <td className="px-3 py-2 text-right">
                      <DeletePayment invoice={i} payment={p} onDone={onDone} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Delete, after asking: what goes and, on a paid invoice, that it opens again. */
function DeletePayment({ invoice: i, payment: p, onDone }: { invoice: Invoice; payment: Payment; onDone: (message: string) => void }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const remove = useDeletePayment(i.id);
  const names = { amount: format.money(p.amount, i.currency), date: format.day(p.paid_date), number: i.number };
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        remove.reset();
        setOpen(o);
      }}
    >
      <Button variant="secondary" aria-label={t('payments.deleteNamed', names)}>
        {t('payments.delete')}
      </Button>
      <Dialog title={t('payments.deleteTitle')}>
        <div className="flex flex-col gap-4 text-sm">
          <p className="text-stone-800">{t('payments.deleteText', names)}</p>
          {i.state === 'paid' && <p className="text-stone-800">{t('payments.deleteReopens')}</p>}
          {remove.error && <Alert>{describeError(remove.error).message}</Alert>}
          <Button
            variant="danger"
            isPending={remove.isPending}
            onPress={() =>
              // Not mutate's own onSuccess: the answer re-renders the list, and the message must still show.
              remove.mutateAsync(p.id).then(
                (after) => {
                  setOpen(false);
                  onDone(t(after.state === 'open' && i.state === 'paid' ? 'payments.deletedReopened' : 'payments.deleted'));
                },
                () => undefined, // shown in the dialog (remove.error)
              )
            }
          >
            {t('payments.deleteConfirm')}
          </Button>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}

/**
 * "Send a thank-you?" once the invoice turns from open to paid while the page shows it (a
 * payment recorded here, or elsewhere and seen when the invoice reloads): the server's
 * thank-you message (messages.ts), in the client's language, through the dialog of the
 * page's other e-mails. An invoice already paid when the page opens offers it in the header.
 * That it was sent is the page's notice (`onDone`), as every other outcome there is.
 */
function ThankYouOffer({ invoice: i, onDone }: { invoice: Invoice; onDone: (message: string) => void }) {
  const t = useInvoiceTexts();
  const before = useRef(i.state);
  const [offered, setOffered] = useState(false);
  const [writing, setWriting] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (before.current === 'open' && i.state === 'paid') setOffered(true);
    if (i.state !== 'paid') setOffered(false);
    before.current = i.state;
  }, [i.state]);
  useEffect(() => {
    if (offered) box.current?.scrollIntoView({ block: 'nearest' });
  }, [offered]);
  return (
    <>
      {offered && (
        <div ref={box}>
          <Alert tone="success" title={t('payments.thankYouTitle', { number: i.number })}>
            <p>{t('payments.thankYouText', { client: i.client.name })}</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button onPress={() => setWriting(true)}>{t('payments.thankYouSend')}</Button>
              <Button variant="secondary" onPress={() => setOffered(false)}>
                {t('payments.thankYouLater')}
              </Button>
            </div>
          </Alert>
        </div>
      )}
      {writing && (
        <MessageDialog
          invoice={i}
          event="thank_you"
          onClose={() => setWriting(false)}
          onDone={(text) => {
            setWriting(false);
            setOffered(false);
            onDone(text);
          }}
        />
      )}
    </>
  );
}
