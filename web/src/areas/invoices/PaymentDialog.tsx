import { getLocalTimeZone, today, type CalendarDate } from '@internationalized/date';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useMemo, useState } from 'react';
import { formErrors } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { useRecordPayment, type Invoice } from './api.ts';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { NumberField } from '../../ui/NumberField.tsx';

/**
 * An administrator records a payment on an open invoice (web only): the amount due
 * is offered; a smaller amount is a partial payment, and the payment that settles the
 * rest marks the invoice paid (the server decides; the page shows its answer).
 */
export function PaymentDialog({ invoice, onDone }: { invoice: Invoice; onDone: (message: string) => void }) {
  const [amount, setAmount] = useState(invoice.due_amount);
  const [date, setDate] = useState<CalendarDate | null>(today(getLocalTimeZone()));
  const [notes, setNotes] = useState('');
  const record = useRecordPayment(invoice.id);
  const keyFor = useIdempotencyKey();
  // Memoised on the error: React Aria drops a server error once the field is edited, unless it is handed a new object.
  const { fieldErrors, summary } = useMemo(() => formErrors(record.error, ['amount', 'paid_date']), [record.error]);

  const onSubmit = () => {
    if (!date || !(amount > 0)) return;
    const body = { amount, paid_date: date.toString(), ...(notes.trim() ? { notes: notes.trim() } : {}) };
    record.mutate(
      { body, key: keyFor(body) },
      { onSuccess: (after) => onDone(after.state === 'paid' ? 'Payment recorded: the invoice is paid.' : 'Payment recorded.') },
    );
  };

  return (
    <Dialog title={`Record a payment on invoice ${invoice.number}`}>
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
          label="Amount"
          name="amount"
          value={amount}
          onChange={setAmount}
          minValue={0}
          maxValue={invoice.due_amount}
          isRequired
          formatOptions={{ style: 'currency', currency: invoice.currency }}
          description="Less than the amount due records a partial payment."
        />
        <DatePicker label="Paid on" name="paid_date" value={date} onChange={setDate} isRequired />
        <TextArea label="Notes (optional)" value={notes} onChange={setNotes} maxLength={10_000} />
        <Button type="submit" isPending={record.isPending}>
          Record payment
        </Button>
      </Form>
    </Dialog>
  );
}
