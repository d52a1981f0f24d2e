import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError, formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { Select } from '../../ui/Select.tsx';
import type { Invoice } from './api.ts';
import { invoiceRetainersQuery, useApplyRetainer, useRemoveRetainerCredit, type InvoiceRetainers } from './retainer-api.ts';
import { useInvoiceTexts } from './texts.ts';

/**
 * The invoice's retainer credits (issue 25 item 8) for those who see every invoice: each credit
 * (removable on a draft), and on a draft of a client with a retainer holding funds in the
 * invoice's currency, "Apply retainer". Shown only when there is something to show or do.
 */
export function RetainerPanel({ invoice }: { invoice: Invoice }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const { data, error } = useQuery(invoiceRetainersQuery(invoice.id));
  const remove = useRemoveRetainerCredit();
  if (error) return <Alert>{describeError(error).message}</Alert>;
  if (!data || (data.credits.length === 0 && data.available.length === 0)) return null;
  const draft = invoice.state === 'draft';
  return (
    <section aria-labelledby="invoice-retainer" className="flex flex-col gap-2">
      <h2 id="invoice-retainer" className="text-lg font-semibold text-stone-900">
        {t('retainer.heading')}
      </h2>
      {data.credits.length === 0 ? (
        <p className="text-sm text-stone-600">{t('retainer.none')}</p>
      ) : (
        <ul aria-label={t('retainer.credits')} className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white text-sm shadow-xs">
          {data.credits.map((c) => (
            <li key={c.line_id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <Link href={`/invoices/retainers/${c.retainer_id}`}>{t('retainer.credit', { name: c.name, amount: format.money(-c.amount, invoice.currency) })}</Link>
              {draft && (
                <Button
                  variant="quiet"
                  aria-label={t('retainer.removeLabel', { name: c.name })}
                  isPending={remove.isPending}
                  onPress={() => remove.mutate({ retainerId: c.retainer_id, lineId: c.line_id })}
                >
                  {t('retainer.remove')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {remove.error && <Alert>{describeError(remove.error).message}</Alert>}
      {draft && data.available.length > 0 && invoice.due_amount > 0 && <ApplyRetainer invoice={invoice} available={data.available} />}
    </section>
  );
}

function ApplyRetainer({ invoice, available }: { invoice: Invoice; available: InvoiceRetainers['available'] }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const [retainerId, setRetainerId] = useState(available[0].id);
  const chosen = available.find((r) => r.id === retainerId) ?? available[0];
  const [amount, setAmount] = useState(Math.min(chosen.balance, invoice.due_amount));
  const apply = useApplyRetainer(invoice.id);
  const keyFor = useIdempotencyKey();
  const { fieldErrors, summary } = useMemo(() => formErrors(apply.error, ['amount']), [apply.error]);
  return (
    <div>
      <DialogTrigger
        isOpen={open}
        onOpenChange={(o) => {
          apply.reset();
          setAmount(Math.min(chosen.balance, invoice.due_amount));
          setOpen(o);
        }}
      >
        <Button variant="secondary">{t('retainer.apply')}</Button>
        <Dialog title={t('retainer.title', { number: invoice.number })}>
          <Form
            validationErrors={fieldErrors}
            onSubmit={(e) => {
              e.preventDefault();
              if (!(amount > 0)) return;
              const body = { retainerId: chosen.id, amount };
              apply.mutate({ ...body, key: keyFor(body) }, { onSuccess: () => setOpen(false) });
            }}
            className="flex flex-col gap-4 text-sm"
          >
            <p className="text-stone-800">{t('retainer.text')}</p>
            {summary && <Alert>{summary}</Alert>}
            <Select
              label={t('retainer.retainer')}
              options={available.map((r) => ({ id: r.id, label: t('retainer.option', { name: r.name, balance: format.money(r.balance, r.currency) }) }))}
              selectedKey={chosen.id}
              onSelectionChange={(key) => {
                const next = available.find((r) => r.id === key);
                if (!next) return;
                setRetainerId(next.id);
                setAmount(Math.min(next.balance, invoice.due_amount));
              }}
            />
            <NumberField
              label={t('retainer.amount')}
              name="amount"
              value={amount}
              onChange={setAmount}
              minValue={0}
              maxValue={Math.min(chosen.balance, invoice.due_amount)}
              isRequired
              formatOptions={{ style: 'currency', currency: invoice.currency }}
              description={t('retainer.amountHint', { due: format.money(invoice.due_amount, invoice.currency) })}
            />
            <Button type="submit" isPending={apply.isPending}>
              {t('retainer.submit')}
            </Button>
          </Form>
        </Dialog>
      </DialogTrigger>
    </div>
  );
}
