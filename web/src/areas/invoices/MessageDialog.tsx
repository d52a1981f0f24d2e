import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { recipientsQuery, useSendMessage, type Invoice, type MessageBody, type MessageEvent } from './api.ts';
import { useInvoiceTexts } from './texts.ts';
import { sharingQuery } from './sharing-api.ts';
import { useSharingTexts } from './sharing-texts.ts';
import { E_INVOICE_CHOICES, isEInvoiceChoice, missingFieldsOf, type EInvoiceChoice } from './e-invoice.ts';
import { EInvoiceError } from './EInvoice.tsx';
import { useEInvoiceTexts } from './e-invoice-texts.ts';

/** Which messages the invoice's state allows (the spec's rules; the server checks again and answers 409 otherwise). */
export function eventsFor(i: Pick<Invoice, 'state' | 'due_amount'>): MessageEvent[] {
  if (i.state === 'draft') return ['send'];
  if (i.state === 'open') return i.due_amount > 0 ? ['send', 'reminder'] : ['send'];
  if (i.state === 'paid') return ['thank_you'];
  return [];
}

interface Address {
  key: number | string;
  name: string;
  email: string;
}

let nextKey = 1;
const blank = (): Address => ({ key: nextKey++, name: '', email: '' });

/**
 * Send, remind or thank: recipients (name and e-mail, several), cc (not on a thank-you),
 * subject and message (empty: the server's wording), the PDF attached, a copy to me.
 * The first recipients are the server's suggestion: the client's invoice e-mail address
 * when it has one, else its contacts with an e-mail.
 */
export function MessageDialog({
  invoice,
  event,
  onDone,
  onClose,
}: {
  invoice: Invoice;
  event: MessageEvent;
  onDone: (message: string) => void;
  onClose: () => void;
}) {
  const t = useInvoiceTexts();
  const suggested = useQuery(recipientsQuery(invoice.id)).data;
  const [to, setTo] = useState<Address[] | null>(null);
  const [cc, setCc] = useState<Address[]>([]);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [attachPdf, setAttachPdf] = useState(true);
  const [eInvoice, setEInvoice] = useState<EInvoiceChoice | null>(null);
  const te = useEInvoiceTexts();
  const [copy, setCopy] = useState(false);
  // The invoice's files go with the e-mail unless unticked (null: all of them, as they load).
  const files = useQuery(sharingQuery(invoice.id));
  const [unticked, setUnticked] = useState<Set<string>>(new Set());
  const ts = useSharingTexts();
  const send = useSendMessage(invoice.id);
  const keyFor = useIdempotencyKey();

  // The suggestion fills the recipients once it arrives (until then, or without one, one empty row).
  const offered = useMemo(() => suggested?.recipients.map((r, i) => ({ key: `suggested-${i}`, name: r.name ?? '', email: r.email })), [suggested]);
  // One empty row for the dialog's life: a new key on each render would remount the field whenever a
  // query resolves, and what was typed into it meanwhile would be lost.
  const [emptyRow] = useState(blank);
  const recipients = to ?? (offered?.length ? offered : [emptyRow]);
  const hint = !to && offered?.length ? (suggested?.source === 'invoice_email' ? t('message.fromInvoiceEmail') : t('message.fromContacts')) : undefined;
  const setRecipients = (next: Address[]) => setTo(next);

  // Memoised on the error: React Aria drops a server error once the field is edited, unless it is handed a new object.
  const toCount = recipients.length;
  const ccCount = cc.length;
  const { fieldErrors, summary } = useMemo(() => {
    const fields = [
      ...Array.from({ length: toCount }, (_, i) => [`recipients.${i}.email`, `recipients.${i}.name`]).flat(),
      ...Array.from({ length: ccCount }, (_, i) => [`cc_recipients.${i}.email`, `cc_recipients.${i}.name`]).flat(),
      'subject',
      'body',
    ];
    // An incomplete e-invoice is its own message (the missing fields, with links), not the summary.
    return missingFieldsOf(send.error) ? {} : formErrors(send.error, fields);
  }, [send.error, toCount, ccCount]);

  const submit = () => {
    const list = (a: Address[]) => a.filter((r) => r.email.trim()).map((r) => ({ email: r.email.trim(), ...(r.name.trim() ? { name: r.name.trim() } : {}) }));
    const message: MessageBody = {
      event_type: event,
      recipients: list(recipients),
      ...(event !== 'thank_you' && cc.length ? { cc_recipients: list(cc) } : {}),
      ...(subject.trim() ? { subject: subject.trim() } : {}),
      ...(body.trim() ? { body } : {}),
      attach_pdf: attachPdf,
      ...(eInvoice ? { attach_e_invoice: eInvoice } : {}),
      send_me_a_copy: copy,
      attachment_ids: (files.data?.attachments ?? []).map((a) => a.id).filter((id) => !unticked.has(id)),
    };
    send.mutate({ body: message, key: keyFor(message) }, { onSuccess: () => onDone(t(`message.events.${event}.done`)) });
  };

  return (
    <Dialog title={t(`message.events.${event}.title`, { number: invoice.number })} isOpen onOpenChange={(open) => !open && onClose()}>
      <Form
        validationErrors={fieldErrors}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        className="flex flex-col gap-4 text-sm"
      >
        {summary && <Alert>{summary}</Alert>}
        <AddressRows prefix="recipients" rows={recipients} onChange={setRecipients} required hint={hint} />
        {event !== 'thank_you' && <AddressRows prefix="cc_recipients" rows={cc} onChange={setCc} />}
        <TextField label={t('message.subject')} name="subject" value={subject} onChange={setSubject} description={t('message.subjectHint')} />
        <TextArea label={t('message.body')} name="body" value={body} onChange={setBody} rows={4} description={t('message.bodyHint')} />
        <Checkbox isSelected={attachPdf} onChange={setAttachPdf}>
          {t('message.attachPdf')}
        </Checkbox>
        <Select
          label={te('attach')}
          name="attach_e_invoice"
          description={te('attachHint')}
          options={[{ id: 'none', label: te('attachNone') }, ...E_INVOICE_CHOICES.map((id) => ({ id, label: te(`choices.${id}`) }))]}
          selectedKey={eInvoice ?? 'none'}
          onSelectionChange={(key) => {
            send.reset();
            setEInvoice(isEInvoiceChoice(key) ? key : null);
          }}
        />
        {/* Beside the choice and the send button it blocks (the dialog is scrolled down to here). */}
        {eInvoice && missingFieldsOf(send.error) && <EInvoiceError invoice={invoice} choice={eInvoice} error={send.error} />}
        {files.data && files.data.attachments.length > 0 && (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-medium text-stone-900">{ts('message.attachments')}</legend>
            <p className="text-xs text-stone-600">{ts('message.attachmentsHint')}</p>
            {files.data.attachments.map((a) => (
              <Checkbox
                key={a.id}
                isSelected={!unticked.has(a.id)}
                onChange={(on) =>
                  setUnticked((prev) => {
                    const next = new Set(prev);
                    if (on) next.delete(a.id);
                    else next.add(a.id);
                    return next;
                  })
                }
              >
                {a.file_name}
              </Checkbox>
            ))}
          </fieldset>
        )}
        <Checkbox isSelected={copy} onChange={setCopy}>
          {t('message.sendCopy')}
        </Checkbox>
        <Button type="submit" isPending={send.isPending}>
          {t(`message.events.${event}.action`)}
        </Button>
      </Form>
    </Dialog>
  );
}

function AddressRows({
  prefix,
  rows,
  onChange,
  required,
  hint,
}: {
  prefix: 'recipients' | 'cc_recipients';
  rows: Address[];
  onChange: (a: Address[]) => void;
  required?: boolean;
  hint?: string;
}) {
  const t = useInvoiceTexts();
  const cc = prefix === 'cc_recipients';
  const set = (i: number, patch: Partial<Address>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-1 font-medium text-stone-900">{cc ? t('message.cc') : t('message.recipients')}</legend>
      {hint && <p className="text-xs text-stone-600">{hint}</p>}
      {rows.map((r, i) => (
        <div key={r.key} className="grid gap-2 rounded-md border border-stone-200 p-2 sm:grid-cols-2">
          <TextField label={t(cc ? 'message.ccName' : 'message.recipientName', { n: i + 1 })} name={`${prefix}.${i}.name`} value={r.name} onChange={(name) => set(i, { name })} />
          <TextField
            label={t(cc ? 'message.ccEmail' : 'message.recipientEmail', { n: i + 1 })}
            name={`${prefix}.${i}.email`}
            type="email"
            value={r.email}
            onChange={(email) => set(i, { email })}
            isRequired={required && i === 0}
          />
          {(rows.length > 1 || !required) && (
            <div className="sm:col-span-2">
              <Button variant="quiet" onPress={() => onChange(rows.filter((_, j) => j !== i))}>
                {t(cc ? 'message.removeCc' : 'message.removeRecipient', { n: i + 1 })}
              </Button>
            </div>
          )}
        </div>
      ))}
      <div>
        <Button variant="secondary" onPress={() => onChange([...rows, blank()])}>
          {cc ? t('message.addCc') : t('message.addRecipient')}
        </Button>
      </div>
    </fieldset>
  );
}
