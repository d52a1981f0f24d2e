import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as AriaLink } from 'react-aria-components';
import { useNavigate, useSearchParams } from 'react-router';
import { holds, isAdministrator } from '../../api/access.ts';
import { describeError } from '../../api/errors.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { buttonClass } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select, type SelectOption } from '../../ui/Select.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { clientsQuery, invoicesQuery, type InvoiceFilter, type InvoiceList } from './api.ts';
import { filterOf, searchOf } from './filters.ts';
import { STATES } from './states.ts';
import { StateBadge } from './StateBadge.tsx';
import { useInvoiceTexts } from './texts.ts';

type ListedInvoice = InvoiceList['invoices'][number];

/** The invoices in the caller's reach, newest issue date first: filters in the URL, pages of 25, each row opening the invoice. */
export function InvoicesPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const t = useInvoiceTexts();
  const { workspace } = useWorkspaceSession();
  const filter = filterOf(params);
  const { data: list, error, isPlaceholderData } = useQuery(invoicesQuery(filter));
  const go = (next: InvoiceFilter) => navigate(`/invoices${searchOf(next)}`);
  const filtered = !!(filter.state || filter.client_id);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PageHeading>{t('invoices')}</PageHeading>
        <div className="flex flex-wrap gap-2">
          {isAdministrator(workspace) && (
            <AriaLink href="/invoices/recurring" className={buttonClass('secondary')}>
              {t('recurring')}
            </AriaLink>
          )}
          {holds(workspace, 'view_invoices') && (
            <AriaLink href="/invoices/retainers" className={buttonClass('secondary')}>
              {t('retainerLink')}
            </AriaLink>
          )}
          <AriaLink href="/invoices/new" className={buttonClass('primary')}>
            {t('newInvoice')}
          </AriaLink>
        </div>
      </div>
      {error && !list && <Alert>{describeError(error).message}</Alert>}
      <Filters filter={filter} list={list} onChange={(f) => go({ ...f, page: undefined })} />
      {!list && !error && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loadingInvoices')}
        </div>
      )}
      {list && (
        <section aria-labelledby="invoices-list" aria-busy={isPlaceholderData} className="flex flex-col gap-3">
          <h2 id="invoices-list" className="sr-only">
            {t('invoices')}
          </h2>
          {list.invoices.length === 0 ? (
            <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
              {filtered ? (
                <p>
                  {t('noMatch')} <Link href="/invoices">{t('showAll')}</Link>
                </p>
              ) : (
                <p>{t('noneYet')}</p>
              )}
            </div>
          ) : (
            <InvoiceTable invoices={list.invoices} />
          )}
          {list.total_pages > 1 && <Pager list={list} noun={t('pagerNoun')} onPage={(page) => go({ ...filter, page })} />}
        </section>
      )}
    </div>
  );
}

/**
 * State and client. The clients load when the client filter is first opened, not with
 * the page (session, timer and the list are the page's three calls); a client chosen
 * in the URL shows by the name the listed invoices carry until then.
 */
function Filters({ filter, list, onChange }: { filter: InvoiceFilter; list?: InvoiceList; onChange: (f: InvoiceFilter) => void }) {
  const t = useInvoiceTexts();
  const [wantClients, setWantClients] = useState(false);
  const { data: clients, isFetching } = useQuery({ ...clientsQuery, enabled: wantClients });
  const states: SelectOption[] = [{ id: 'all', label: t('allStates') }, ...STATES.map((s) => ({ id: s.id, label: t(`states.${s.id}`) }))];
  const clientOptions: SelectOption[] = [{ id: 'all', label: t('allClients') }];
  if (clients) clientOptions.push(...clients.clients.map((c) => ({ id: c.id, label: c.is_active ? c.name : t('archivedClient', { name: c.name }) })));
  else if (filter.client_id) {
    const known = list?.invoices.find((i) => i.client.id === filter.client_id)?.client.name;
    clientOptions.push({ id: filter.client_id, label: known ?? (isFetching ? t('loadingClients') : t('chosenClient')) });
  }
  return (
    <div className="grid gap-3 sm:grid-cols-2" role="group" aria-label={t('filters')}>
      <Select
        label={t('state')}
        options={states}
        selectedKey={filter.state ?? 'all'}
        onSelectionChange={(key) => onChange({ ...filter, state: key === 'all' ? undefined : (key as InvoiceFilter['state']) })}
      />
      <Select
        label={t('client')}
        options={clientOptions}
        selectedKey={filter.client_id ?? 'all'}
        onOpenChange={(open) => open && setWantClients(true)}
        onFocus={() => setWantClients(true)}
        onSelectionChange={(key) => onChange({ ...filter, client_id: key === 'all' ? undefined : String(key) })}
      />
    </div>
  );
}

function InvoiceTable({ invoices }: { invoices: ListedInvoice[] }) {
  const t = useInvoiceTexts();
  return (
    <div className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs">
      <table data-stack className="w-full min-w-[44rem] border-collapse text-sm">
        <caption className="sr-only">{t('list.caption')}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">{t('list.number')}</th>
            <th scope="col" className="px-3 py-2">{t('list.client')}</th>
            <th scope="col" className="px-3 py-2">{t('list.issued')}</th>
            <th scope="col" className="px-3 py-2">{t('list.due')}</th>
            <th scope="col" className="px-3 py-2 text-right">{t('list.amount')}</th>
            <th scope="col" className="px-3 py-2 text-right">{t('list.dueAmount')}</th>
            <th scope="col" className="px-3 py-2">{t('list.state')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {invoices.map((i) => (
            <InvoiceRow key={i.id} invoice={i} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InvoiceRow({ invoice: i }: { invoice: ListedInvoice }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  return (
    <tr className="align-top">
      <th scope="row" className="px-3 py-2.5 text-left font-medium whitespace-nowrap">
        <Link href={`/invoices/${i.id}`} aria-label={t('list.rowLink', { number: i.number, client: i.client.name })}>
          {i.number}
        </Link>
        {i.subject && <span className="block text-xs font-normal text-stone-600">{i.subject}</span>}
      </th>
      <td className="px-3 py-2.5 text-stone-900">{i.client.name}</td>
      <td className="px-3 py-2.5 whitespace-nowrap">{format.day(i.issue_date)}</td>
      <td className="px-3 py-2.5 whitespace-nowrap">{format.day(i.due_date)}</td>
      <td className="px-3 py-2.5 text-right font-medium whitespace-nowrap tabular-nums">{format.money(i.amount, i.currency)}</td>
      <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{format.money(i.due_amount, i.currency)}</td>
      <td className="px-3 py-2.5">
        <StateBadge state={i.state} />
      </td>
    </tr>
  );
}
