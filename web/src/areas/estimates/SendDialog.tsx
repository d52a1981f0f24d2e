import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { serverNow } from '../../api/server-clock.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { recipientsQuery, useSendEstimate, type Estimate, type SendBody } from './api.ts';
import { useEstimateTexts } from './texts.ts';

/**
 * Send the estimate by e-mail: one recipient (name and address; filled in with the
 * client's invoice e-mail address, else its first contact with one, as the server
 * suggests), subject and message (empty: the server's wording in the client's
 * language), the PDF attached, a copy to me.
 * The Idempotency-Key of the message makes a double click send once.
 */
export function SendDialog({ estimate, onDone, onClose }: { estimate: Estimate; onDone: () => void; onClose: () => void }) {
  const t = useEstimateTexts();
  const send = useSendEstimate(estimate.id);
  const keyFor = useIdempotencyKey();
  const suggested = useQuery(recipientsQuery(estimate.id)).data;
  const format = useFormat();
  // Past its validity (in the workspace's calendar), the client's page no longer lets them accept it: said before it goes.
  const expired = estimate.valid_until !== null && estimate.valid_until < format.dayOf(serverNow());
  const first = suggested?.recipients[0];
  // Until the person types, the suggestion (as it arrives); then what they typed.
  const [typed, setTyped] = useState<{ name: string; email: string } | null>(null);
  const name = typed?.name ?? first?.name ?? '';
  const email = typed?.email ?? first?.email ?? '';
  const setName = (v: string) => setTyped({ name: v, email });
  const setEmail = (v: string) => setTyped({ name, email: v });
  const hint = !typed && first ? (suggested?.source === 'invoice_email' ? t('send.fromInvoiceEmail') : t('send.fromContacts')) : undefined;
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [attachPdf, setAttachPdf] = useState(true);
  const [copy, setCopy] = useState(false);
  // Memoised on the error: React Aria drops a server error once the field is edited, unless it is handed a new object.
  const { fieldErrors, summary } = useMemo(() => formErrors(send.error, ['recipients.0.email', 'recipients.0.name', 'subject', 'body']), [send.error]);

  const submit = () => {
    const message: SendBody = {
      recipients: [{ email: email.trim(), ...(name.trim() ? { name: name.trim() } : {}) }],
      ...(subject.trim() ? { subject: subject.trim() } : {}),
      ...(body.trim() ? { body } : {}),
      attach_pdf: attachPdf,
      send_me_a_copy: copy,
    };
    send.mutate({ body: message, key: keyFor(message) }, { onSuccess: onDone });
  };

  return (
    <Dialog title={t('send.title', { number: estimate.number })} isOpen onOpenChange={(open) => !open && onClose()}>
      <Form
        validationErrors={fieldErrors}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        className="flex flex-col gap-4 text-sm"
      >
        {summary && <Alert>{summary}</Alert>}
        {expired && (
          <Alert tone="warning" title={t('send.expired.title', { date: format.day(estimate.valid_until!) })}>
            {t('send.expired.text')}
          </Alert>
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label={t('send.recipientName')} name="recipients.0.name" value={name} onChange={setName} />
          <TextField label={t('send.recipientEmail')} name="recipients.0.email" type="email" value={email} onChange={setEmail} isRequired description={hint} />
        </div>
        <TextField label={t('send.subject')} name="subject" value={subject} onChange={setSubject} description={t('send.subjectHint', { number: estimate.number })} />
        <TextArea label={t('send.body')} name="body" value={body} onChange={setBody} rows={4} description={t('send.bodyHint')} />
        <Checkbox isSelected={attachPdf} onChange={setAttachPdf}>
          {t('send.attachPdf')}
        </Checkbox>
        <Checkbox isSelected={copy} onChange={setCopy}>
          {t('send.sendCopy')}
        </Checkbox>
        <Button type="submit" isPending={send.isPending}>
          {t('send.submit')}
        </Button>
      </Form>
    </Dialog>
  );
}
