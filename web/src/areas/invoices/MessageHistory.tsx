import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { messagesQuery, type InvoiceMessage } from './api.ts';
import { attachedTo } from './attached.ts';
import { useEInvoiceTexts } from './e-invoice-texts.ts';
import { useInvoiceTexts } from './texts.ts';

/** The e-mails sent about an invoice, oldest first as the API lists them, with who got them and whether they left. */
export function MessageHistory({ invoiceId }: { invoiceId: string }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const eInvoice = useEInvoiceTexts();
  const attached = (m: InvoiceMessage) => {
    const files = attachedTo(m).map((a) =>
      a.kind === 'pdf' ? t('history.pdf') : a.kind === 'e-invoice' ? eInvoice(`choices.${a.choice}`) : a.kind === 'file' ? a.name : t('history.receipts'),
    );
    return files.length ? t('history.attached', { files: format.list(files) }) : t('history.nothingAttached');
  };
  const { data, error } = useQuery(messagesQuery(invoiceId));
  if (error) return <Alert>{describeError(error).message}</Alert>;
  if (!data) {
    return (
      <p role="status" className="text-sm text-stone-600">
        {t('history.loading')}
      </p>
    );
  }
  if (data.invoice_messages.length === 0) return <p className="text-sm text-stone-700">{t('history.none')}</p>;
  return (
    <ol className="flex flex-col gap-3">
      {data.invoice_messages.map((m) => (
        <li key={m.id} className="rounded-lg border border-stone-200 bg-white p-3 text-sm shadow-xs">
          <p className="font-medium text-stone-900">
            {t('history.when', { event: t(`history.events.${m.event_type}`), date: format.dateTime(m.created_at) })}
            {m.sent_by && <span className="font-normal text-stone-700"> {t('history.by', { name: m.sent_by.name })}</span>}
          </p>
          <p className="text-stone-700">
            {t('history.to', { recipients: m.recipients.map((r) => (r.name ? `${r.name} <${r.email}>` : r.email)).join(', ') })}
            {m.cc_recipients.length > 0 && <> · {t('history.cc', { recipients: m.cc_recipients.map((r) => r.email).join(', ') })}</>}
          </p>
          <p className="text-stone-700">
            {m.delivery_error
              ? t('history.deliveryError', { status: t(`history.delivery.${m.delivery_status}`), error: m.delivery_error })
              : t(`history.delivery.${m.delivery_status}`)}
          </p>
          <p className="text-stone-700">{attached(m)}</p>
          {m.subject && <p className="mt-2 font-medium text-stone-900">{m.subject}</p>}
          {m.body && <p className="mt-1 whitespace-pre-line text-stone-800">{m.body}</p>}
        </li>
      ))}
    </ol>
  );
}
