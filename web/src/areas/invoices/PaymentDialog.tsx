import { parseDate, type CalendarDate } from '@internationalized/date';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useMemo, useState } from 'react';
import { formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { useRecordPayment, type Invoice, type PaymentMethod } from './api.ts';
import { Select } from '../../ui/Select.tsx';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { useInvoiceTexts } from './texts.ts';
import { paymentProblem } from './payment.ts';

/** The server's payment methods (src/modules/billing/invoices/rules.ts PAYMENT_METHODS); their names are in texts.ts (`methods.*`). */
const METHODS = ['bank_transfer', 'card', 'cash', 'check', 'paypal', 'other'] as const satisfies readonly PaymentMethod[];

/**
 * An administrator records a payment on an open invoice (web only): the amount due
 * is offered; a smaller amount is a partial payment, and the payment that settles the
 * rest marks the invoice paid (the server decides; the page shows its answer).
 */
export function PaymentDialog({ invoice, onDone }: { invoice: Invoice; onDone: (message: string) => void }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const [amount, setAmount] = useState(invoice.due_amount);
  // Today in the workspace's zone, not the browser's.
  const [date, setDate] = useState<CalendarDate | null>(() => parseDate(format.dayOf(Date.now())));
  const [notes, setNotes] = useState('');
  const [method, setMethod] = useState<PaymentMethod | null>(null);
  const record = useRecordPayment(invoice.id);
  const keyFor = useIdempotencyKey();
  // Memoised on the error: React Aria drops a server error once the field is edited, unless it is handed a new object.
  const { fieldErrors, summary } = useMemo(() => formErrors(record.error, ['amount', 'paid_date']), [record.error]);

  const onSubmit = () => {
    if (!date || paymentProblem(amount, invoice.due_amount, invoice.currency)) return;
    const body = { amount, paid_date: date.toString(), ...(method ? { method } : {}), ...(notes.trim() ? { notes: notes.trim() } : {}) };
    record.mutate(
      { body, key: keyFor(body) },
      { onSuccess: (after) => onDone(after.state === 'paid' ? t('payment.donePaid') : t('payment.done')) },
    );
  };

  return (
    <Dialog title={t('payment.title', { number: invoice.number })}>
      <Form
        validationErrors={fieldErrors}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
        className="flex flex-col gap-4 text-sm"
      >
        {summary && <Alert>{summary}</Alert>}
        <NumberField
          label={t('payment.amount')}
          name="amount"
          value={amount}
          onChange={setAmount}
          validate={(value) => {
            const problem = paymentProblem(value, invoice.due_amount, invoice.currency);
            return problem && t(`payment.${problem}`, { due: format.money(invoice.due_amount, invoice.currency) });
          }}
          isRequired
          formatOptions={{ style: 'currency', currency: invoice.currency }}
          description={t('payment.amountHint')}
        />
        <DatePicker label={t('payment.paidOn')} name="paid_date" value={date} onChange={setDate} isRequired />
        <Select
          label={t('payment.method')}
          options={[{ id: '', label: t('payment.noMethod') }, ...METHODS.map((m) => ({ id: m, label: t(`methods.${m}`) }))]}
          selectedKey={method ?? ''}
          onSelectionChange={(key) => setMethod(METHODS.find((m) => m === key) ?? null)}
        />
        <TextArea label={t('payment.notes')} value={notes} onChange={setNotes} maxLength={10_000} />
        <Button type="submit" isPending={record.isPending}>
          {t('payment.submit')}
        </Button>
      </Form>
    </Dialog>
  );
}
