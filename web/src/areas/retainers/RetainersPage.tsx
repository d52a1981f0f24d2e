import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ComboBox } from '../../ui/ComboBox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { retainersQuery, useCreateRetainer, type RetainerSummary } from './api.ts';
import { useRetainerTexts } from './texts.ts';
import { activeClientsQuery } from '../../api/clients.ts';

/** The retainers with their balances (active, or ?archived=true the archived ones); New retainer opens a dialog. */
export function RetainersPage() {
  const t = useRetainerTexts();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const archived = params.get('archived') === 'true';
  const { data: list, error } = useQuery(retainersQuery(archived));

  return (
    <div className="flex flex-col gap-6">
      <Link href="/invoices">{t('backToInvoices')}</Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PageHeading>{t('retainers')}</PageHeading>
        <CreateRetainer />
      </div>
      <p className="max-w-prose text-sm text-stone-700">{t('intro')}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Select
          label={t('show')}
          options={[
            { id: 'active', label: t('active') },
            { id: 'archived', label: t('archived') },
          ]}
          selectedKey={archived ? 'archived' : 'active'}
          onSelectionChange={(key) => navigate(key === 'archived' ? '/invoices/retainers?archived=true' : '/invoices/retainers')}
        />
      </div>
      {error && !list && <Alert>{describeError(error).message}</Alert>}
      {!list && !error && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loading')}
        </div>
      )}
      {list &&
        (list.retainers.length === 0 ? (
          <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
            <p>{archived ? t('noneArchived') : t('noneYet')}</p>
          </div>
        ) : (
          <RetainerTable retainers={list.retainers} />
        ))}
    </div>
  );
}

function RetainerTable({ retainers }: { retainers: RetainerSummary[] }) {
  const t = useRetainerTexts();
  const format = useFormat();
  return (
    <div className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs">
      <table data-stack className="w-full min-w-[36rem] border-collapse text-sm">
        <caption className="sr-only">{t('list.caption')}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">{t('list.name')}</th>
            <th scope="col" className="px-3 py-2">{t('list.client')}</th>
            <th scope="col" className="px-3 py-2 text-right">{t('list.balance')}</th>
            <th scope="col" className="px-3 py-2 text-right">{t('list.pending')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {retainers.map((r) => (
            <tr key={r.id} className="align-top">
              <th scope="row" className="px-3 py-2.5 text-left font-medium">
                <Link href={`/invoices/retainers/${r.id}`} aria-label={t('list.rowLink', { name: r.name, client: r.client.name })}>
                  {r.name}
                </Link>
              </th>
              <td className="px-3 py-2.5 text-stone-900">{r.client.name}</td>
              <td className="px-3 py-2.5 text-right font-medium whitespace-nowrap tabular-nums">{format.money(r.balance, r.currency)}</td>
              <td className="px-3 py-2.5 text-right whitespace-nowrap text-stone-700 tabular-nums">{format.money(r.pending, r.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CreateRetainer() {
  const t = useRetainerTexts();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [clientId, setClientId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [currency, setCurrency] = useState('');
  const { data: clients } = useQuery({ ...activeClientsQuery, enabled: open });
  const create = useCreateRetainer();
  const keyFor = useIdempotencyKey();
  const { fieldErrors, summary } = useMemo(() => formErrors(create.error, ['client_id', 'name', 'description', 'currency']), [create.error]);

  const onSubmit = () => {
    if (!clientId) return;
    const body = { client_id: clientId, name, ...(description.trim() ? { description } : {}), ...(currency.trim() ? { currency: currency.trim().toUpperCase() } : {}) };
    create.mutate({ body, key: keyFor(body) }, { onSuccess: (r) => navigate(`/invoices/retainers/${r.id}`) });
  };

  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        create.reset();
        setOpen(o);
      }}
    >
      <Button>{t('create.button')}</Button>
      <Dialog title={t('create.title')}>
        <Form
          validationErrors={fieldErrors}
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
          className="flex flex-col gap-4 text-sm"
        >
          {summary && <Alert>{summary}</Alert>}
          <ComboBox
            label={t('create.client')}
            name="client_id"
            isRequired
            options={(clients?.clients ?? []).map((c) => ({ id: c.id, label: c.name }))}
            selectedKey={clientId}
            onSelectionChange={(key) => setClientId(key === null ? null : String(key))}
          />
          <TextField label={t('create.name')} name="name" value={name} onChange={setName} isRequired maxLength={255} />
          <TextArea label={t('create.description')} name="description" value={description} onChange={setDescription} maxLength={10_000} />
          <TextField label={t('create.currency')} name="currency" value={currency} onChange={setCurrency} maxLength={3} description={t('create.currencyHint')} />
          <Button type="submit" isPending={create.isPending}>
            {t('create.submit')}
          </Button>
        </Form>
      </Dialog>
    </DialogTrigger>
  );
}
