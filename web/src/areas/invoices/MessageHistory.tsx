import { useQuery } from '@tanstack/react-query';
import { useLocale } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { messagesQuery, type InvoiceMessages } from './api.ts';

const EVENTS: Record<InvoiceMessages['invoice_messages'][number]['event_type'], string> = {
  send: 'Sent',
  reminder: 'Reminder',
  thank_you: 'Thank you',
};
const DELIVERY = { pending: 'Waiting to be delivered', sent: 'Delivered', failed: 'Delivery failed' } as const;

/** The e-mails sent about an invoice, oldest first as the API lists them, with who got them and whether they left. */
export function MessageHistory({ invoiceId }: { invoiceId: string }) {
  const { locale } = useLocale();
  const { data, error } = useQuery(messagesQuery(invoiceId));
  if (error) return <Alert>{describeError(error).message}</Alert>;
  if (!data) {
    return (
      <p role="status" className="text-sm text-stone-600">
        Loading messages…
      </p>
    );
  }
  if (data.invoice_messages.length === 0) return <p className="text-sm text-stone-700">No messages have been sent about this invoice.</p>;
  return (
    <ol className="flex flex-col gap-3">
      {data.invoice_messages.map((m) => (
        <li key={m.id} className="rounded-lg border border-stone-200 bg-white p-3 text-sm shadow-xs">
          <p className="font-medium text-stone-900">
            {EVENTS[m.event_type]} · {new Date(m.created_at).toLocaleString(locale)}
            {m.sent_by && <span className="font-normal text-stone-700"> by {m.sent_by.name}</span>}
          </p>
          <p className="text-stone-700">
            To {m.recipients.map((r) => (r.name ? `${r.name} <${r.email}>` : r.email)).join(', ')}
            {m.cc_recipients.length > 0 && <> · Cc {m.cc_recipients.map((r) => r.email).join(', ')}</>}
          </p>
          <p className="text-stone-700">
            {DELIVERY[m.delivery_status]}
            {m.delivery_error && `: ${m.delivery_error}`}
          </p>
          {m.subject && <p className="mt-2 font-medium text-stone-900">{m.subject}</p>}
          {m.body && <p className="mt-1 whitespace-pre-line text-stone-800">{m.body}</p>}
        </li>
      ))}
    </ol>
  );
}
