import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link as AriaLink } from 'react-aria-components';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { clientAccess } from './access.ts';
import { clientsQuery, useUpdateClient, type ClientList } from './api.ts';
import { apiQuery, filterOf, matchesName, searchOf, type ListFilter, type Status } from './filters.ts';
import { termsLabel } from './terms.ts';
import { useClientTexts } from './texts.ts';

type ListedClient = ClientList['clients'][number];

/** Rows drawn at a time: a page of 2,000 clients filters at once, and the table stays light. */
const SLICE = 100;

const STATUSES: Status[] = ['active', 'archived', 'all'];

/** /clients: the clients the caller sees, by name; status, search and page in the URL. */
export function ClientsPage() {
  const t = useClientTexts();
  const { workspace } = useWorkspaceSession();
  const access = clientAccess(workspace);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filter = filterOf(params);
  const { data: list, error, isPlaceholderData } = useQuery(clientsQuery(apiQuery(filter)));
  const go = (next: ListFilter, replace = false) => navigate(`/clients${searchOf(next)}`, { replace });

  // The box owns what is typed (a navigation per key would lag behind fast typing); the URL follows it.
  const [text, setText] = useState(filter.q);
  useEffect(() => {
    if (text !== filter.q) go({ ...filter, q: text, page: filter.page }, true);
  }, [text]);
  // Typing stays instant; the filter of up to 2,000 rows follows a moment later.
  const q = useDeferredValue(text);
  const matches = useMemo(() => (list ? list.clients.filter((c) => !q || matchesName(c.name, q)) : []), [list, q]);
  const [shown, setShown] = useState(SLICE);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageHeading>{t('clients')}</PageHeading>
        {access.writes && (
          <AriaLink href="/clients/new" className={buttonClass('primary')}>
            {t('newClient')}
          </AriaLink>
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-[2fr_1fr]" role="group" aria-label={t('filters')}>
        <TextField
          label={t('searchByName')}
          type="search"
          value={text}
          onChange={(value) => {
            setShown(SLICE);
            setText(value);
          }}
        />
        <Select
          label={t('show')}
          options={STATUSES.map((id) => ({ id, label: t(`status.${id}`) }))}
          selectedKey={filter.status}
          onSelectionChange={(key) => {
            setShown(SLICE);
            go({ ...filter, status: key as Status, page: 1 });
          }}
        />
      </div>
      {error && !list && <Alert>{describeError(error).message}</Alert>}
      {!list && !error && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loadingClients')}
        </div>
      )}
      {list && (
        <section aria-labelledby="clients-list" aria-busy={isPlaceholderData} className="flex flex-col gap-3">
          <h2 id="clients-list" className="sr-only">
            {t(`status.${filter.status}`)}
          </h2>
          {!access.writes && (
            <p className="text-sm text-stone-600">{workspace.role === 'member' ? t('readOnlyMember') : t('readOnlyOther')}</p>
          )}
          {matches.length === 0 ? (
            <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
              {q ? (
                <p>{t(list.total_pages > 1 ? 'noMatchOnPage' : 'noMatch', { q })}</p>
              ) : filter.status === 'archived' ? (
                <p>{t('noArchived')}</p>
              ) : access.writes ? (
                <p>
                  {t('noClientsYet')} <Link href="/clients/new">{t('addFirst')}</Link>
                </p>
              ) : (
                <p>{t('noClients')}</p>
              )}
            </div>
          ) : (
            <ClientTable clients={matches.slice(0, shown)} archives={access.archives} />
          )}
          <p role="status" className="text-sm text-stone-700">
            {q
              ? t(matches.length > shown ? 'matchCountShowing' : 'matchCount', { matches: matches.length, count: list.clients.length, shown })
              : t(matches.length > shown ? 'totalShowing' : 'total', { count: list.total_entries, shown })}
          </p>
          {matches.length > shown && (
            <div>
              <Button variant="secondary" onPress={() => setShown((n) => n + SLICE)}>
                {t('showMore', { count: Math.min(SLICE, matches.length - shown) })}
              </Button>
            </div>
          )}
          {list.total_pages > 1 && <Pager list={list} noun={t('pagerNoun')} note={t('pagerNote')} onPage={(page) => go({ ...filter, page })} />}
        </section>
      )}
    </div>
  );
}

function ClientTable({ clients, archives }: { clients: ListedClient[]; archives: boolean }) {
  const t = useClientTexts();
  const [problem, setProblem] = useState<string | null>(null);
  const billing = clients.some((c) => c.payment_terms !== undefined);
  return (
    <>
      {problem && <Alert>{problem}</Alert>}
      <div className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">{t('byName')}</caption>
          <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">
                {t('name')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('currency')}
              </th>
              {billing && (
                <th scope="col" className="hidden px-3 py-2 sm:table-cell">
                  {t('paymentTerms')}
                </th>
              )}
              {archives && (
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">{t('actions')}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {clients.map((c) => (
              <ClientRow key={c.id} client={c} billing={billing} archives={archives} onProblem={setProblem} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function ClientRow({ client: c, billing, archives, onProblem }: { client: ListedClient; billing: boolean; archives: boolean; onProblem: (p: string | null) => void }) {
  const t = useClientTexts();
  const update = useUpdateClient(c.id);
  const toggle = () => {
    onProblem(null);
    update.mutate({ changes: { is_active: !c.is_active } }, { onError: (e) => onProblem(`${c.name}: ${describeError(e).message}`) });
  };
  return (
    <tr className="align-top">
      <th scope="row" className="px-3 py-2.5 text-left font-normal">
        <Link href={`/clients/${c.id}`}>{c.name}</Link>
        {!c.is_active && <span className="ml-2 rounded-sm bg-stone-100 px-1.5 py-0.5 text-xs text-stone-700">{t('archived')}</span>}
      </th>
      <td className="px-3 py-2.5 text-stone-700">{c.currency}</td>
      {billing && <td className="hidden px-3 py-2.5 text-stone-700 sm:table-cell">{termsLabel(t, c.payment_terms, c.payment_days)}</td>}
      {archives && (
        <td className="px-3 py-1.5 text-right">
          <Button variant="quiet" className="min-h-9 px-3" isPending={update.isPending} onPress={toggle} aria-label={t(c.is_active ? 'archiveNamed' : 'restoreNamed', { name: c.name })}>
            {c.is_active ? t('archive') : t('restore')}
          </Button>
        </td>
      )}
    </tr>
  );
}
