import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { retainerQuery, useFundRetainer, useUpdateRetainer, type Retainer } from './api.ts';
import { useRetainerTexts } from './texts.ts';

/** One retainer: its balance (the server's), its history (each funding and credit line with its invoice), Fund, Rename, Archive. */
export function RetainerPage() {
  const { id } = useParams() as { id: string };
  const t = useRetainerTexts();
  const { data: r, error } = useQuery(retainerQuery(id));
  if (!r) {
    return (
      <div className="flex flex-col gap-6">
        <Link href="/invoices/retainers">{t('backToRetainers')}</Link>
        {error ? <Alert>{describeError(error).message}</Alert> : <p role="status" className="text-stone-600">{t('loadingOne')}</p>}
      </div>
    );
  }
  return <RetainerView retainer={r} />;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col">
      <dt className="text-xs font-semibold text-stone-600 uppercase">{label}</dt>
      <dd className="text-stone-900">{children}</dd>
    </div>
  );
}

function RetainerView({ retainer: r }: { retainer: Retainer }) {
  const t = useRetainerTexts();
  const format = useFormat();
  const update = useUpdateRetainer(r.id);
  const archived = r.archived_at !== null;
  return (
    <div className="flex flex-col gap-6">
      <Link href="/invoices/retainers">{t('backToRetainers')}</Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PageHeading>{r.name}</PageHeading>
        <div className="flex flex-wrap gap-2">
          {!archived && <FundRetainer retainer={r} />}
          <RenameRetainer retainer={r} />
          <Button variant="secondary" isPending={update.isPending} onPress={() => update.mutate({ archived: !archived })}>
            {archived ? t('edit.restore') : t('edit.archive')}
          </Button>
        </div>
      </div>
      {update.error && <Alert>{describeError(update.error).message}</Alert>}
      <section className="rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
        <dl className="grid gap-4 text-sm sm:grid-cols-4">
          <Field label={t('page.client')}>{r.client.name}</Field>
          <Field label={t('page.currency')}>{r.currency}</Field>
          <Field label={t('page.balance')}>
            <span className="text-lg font-semibold tabular-nums">{format.money(r.balance, r.currency)}</span>
          </Field>
          <Field label={t('page.pending')}>
            <span className="tabular-nums">{format.money(r.pending, r.currency)}</span>
          </Field>
        </dl>
        {r.description && <p className="mt-4 border-t border-stone-100 pt-3 text-sm whitespace-pre-line text-stone-800">{r.description}</p>}
        {archived && <p className="mt-3 text-sm text-stone-700">{t('page.archivedOn', { date: format.dateTime(r.archived_at!) })}</p>}
        {!archived && <p className="mt-3 text-xs text-stone-600">{t('edit.archiveHint')}</p>}
      </section>
      <section aria-labelledby="retainer-history" className="flex flex-col gap-2">
        <h2 id="retainer-history" className="text-lg font-semibold text-stone-900">
          {t('page.history')}
        </h2>
        {r.entries.length === 0 ? <p className="text-sm text-stone-600">{t('page.noHistory')}</p> : <History retainer={r} />}
      </section>
    </div>
  );
}

function History({ retainer: r }: { retainer: Retainer }) {
  const t = useRetainerTexts();
  const format = useFormat();
  const counts = (e: Retainer['entries'][number]) => (e.counts ? t('page.yes') : e.pending ? t('page.noPending') : e.kind === 'credit' ? t('page.noVoided') : t('page.no'));
  return (
    <div className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs">
      <table data-stack className="w-full min-w-[36rem] border-collapse text-sm">
        <caption className="sr-only">{t('page.historyCaption')}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">{t('page.invoice')}</th>
            <th scope="col" className="px-3 py-2">{t('page.date')}</th>
            <th scope="col" className="px-3 py-2">{t('page.kind')}</th>
            <th scope="col" className="px-3 py-2 text-right">{t('page.amount')}</th>
            <th scope="col" className="px-3 py-2">{t('page.counts')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {r.entries.map((e) => (
            <tr key={e.id} className="align-top">
              <th scope="row" className="px-3 py-2.5 text-left font-medium whitespace-nowrap">
                <Link href={`/invoices/${e.invoice.id}`} aria-label={t('page.invoiceLink', { number: e.invoice.number })}>
                  {e.invoice.number}
                </Link>
                <span className="block text-xs font-normal text-stone-600">{t(`page.states.${e.invoice.state}`)}</span>
              </th>
              <td className="px-3 py-2.5 whitespace-nowrap">{format.day(e.invoice.issue_date)}</td>
              <td className="px-3 py-2.5">{e.kind === 'funding' ? t('page.funding') : t('page.credit')}</td>
              <td className="px-3 py-2.5 text-right font-medium whitespace-nowrap tabular-nums">
                {format.money(e.kind === 'credit' ? -e.amount : e.amount, r.currency)}
              </td>
              <td className="px-3 py-2.5">{counts(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FundRetainer({ retainer: r }: { retainer: Retainer }) {
  const t = useRetainerTexts();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState(Number.NaN);
  const fund = useFundRetainer(r.id);
  const keyFor = useIdempotencyKey();
  const { fieldErrors, summary } = useMemo(() => formErrors(fund.error, ['amount', 'issue_date']), [fund.error]);
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        fund.reset();
        setOpen(o);
      }}
    >
      <Button>{t('fund.button')}</Button>
      <Dialog title={t('fund.title', { name: r.name })}>
        <Form
          validationErrors={fieldErrors}
          onSubmit={(e) => {
            e.preventDefault();
            if (!(amount > 0)) return;
            const body = { amount };
            fund.mutate({ body, key: keyFor(body) }, { onSuccess: (answer) => navigate(`/invoices/${answer.invoice.id}`) });
          }}
          className="flex flex-col gap-4 text-sm"
        >
          <p className="text-stone-800">{t('fund.text')}</p>
          {summary && <Alert>{summary}</Alert>}
          <NumberField
            label={t('fund.amount')}
            name="amount"
            value={amount}
            onChange={setAmount}
            moreThan={0}
            isRequired
            formatOptions={{ style: 'currency', currency: r.currency }}
          />
          <Button type="submit" isPending={fund.isPending}>
            {t('fund.submit')}
          </Button>
        </Form>
      </Dialog>
    </DialogTrigger>
  );
}

function RenameRetainer({ retainer: r }: { retainer: Retainer }) {
  const t = useRetainerTexts();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(r.name);
  const update = useUpdateRetainer(r.id);
  const { fieldErrors, summary } = useMemo(() => formErrors(update.error, ['name']), [update.error]);
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        update.reset();
        setName(r.name);
        setOpen(o);
      }}
    >
      <Button variant="secondary">{t('edit.button')}</Button>
      <Dialog title={t('edit.title', { name: r.name })}>
        <Form
          validationErrors={fieldErrors}
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ name }, { onSuccess: () => setOpen(false) });
          }}
          className="flex flex-col gap-4 text-sm"
        >
          {summary && <Alert>{summary}</Alert>}
          <TextField label={t('create.name')} name="name" value={name} onChange={setName} isRequired maxLength={255} />
          <Button type="submit" isPending={update.isPending}>
            {t('edit.submit')}
          </Button>
        </Form>
      </Dialog>
    </DialogTrigger>
  );
}
