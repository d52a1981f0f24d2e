import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as AriaLink, SearchField, Input, Label } from 'react-aria-components';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { buttonClass } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select, type SelectOption } from '../../ui/Select.tsx';
import { cx, fieldLabel, focusRingCss, inputBox } from '../../ui/styles.ts';
import { Pager } from '../../ui/Pager.tsx';
import { useTypedSearch } from '../../ui/typed-search.ts';
import { mayCreateProjects } from './access.ts';
import { choicesQuery, listQuery, type ListedProject } from './api.ts';
import { filterOf, queryOf, searchOf, type Filter, type Status } from './filters.ts';
import { useFormat } from '../../api/format.ts';
import { useProjectTexts } from './texts.ts';

/** The projects the person sees, a page at a time from the server: search and filters in the URL. */
export function ProjectsPage() {
  const t = useProjectTexts();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filter = filterOf(params);
  const list = useQuery(listQuery(queryOf(filter)));
  const { workspace } = useWorkspaceSession();
  // The clients and people of the filters load when a filter is first opened (or is in the URL):
  // a page load stays at 3 calls (session, timer, one page of projects).
  const [wantChoices, setWantChoices] = useState(!!(filter.client_id || filter.owner_id));
  const choices = useQuery({ ...choicesQuery(), enabled: wantChoices });
  const mayCreate = mayCreateProjects(workspace);
  const go = (next: Filter) => navigate(`/projects${searchOf(next)}`, { replace: true });
  const filtered = !!(filter.search || filter.client_id || filter.owner_id || filter.status !== 'active');

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageHeading>{t('projects')}</PageHeading>
        {mayCreate && (
          <AriaLink href="/projects/new" className={buttonClass('primary')}>
            {t('newProject')}
          </AriaLink>
        )}
      </div>
      <Filters
        filter={filter}
        clients={choices.data?.clients ?? []}
        people={choices.data?.people ?? []}
        onWant={() => setWantChoices(true)}
        onChange={(f) => go({ ...f, page: undefined })}
      />
      {list.error && !list.data && <Alert>{describeError(list.error).message}</Alert>}
      {!list.data && !list.error && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loadingProjects')}
        </div>
      )}
      {list.data && (
        <section aria-labelledby="projects-list" aria-busy={list.isPlaceholderData} className="flex flex-col gap-3">
          <h2 id="projects-list" className="sr-only">
            {t('projectList')}
          </h2>
          {list.data.projects.length === 0 ? (
            <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
              {filtered ? (
                <p>
                  {t('noMatch')} <Link href="/projects">{t('showAllActive')}</Link>
                </p>
              ) : (
                <p>{t('noProjectsYet')}{mayCreate && <> <Link href="/projects/new">{t('createFirst')}</Link>.</>}</p>
              )}
            </div>
          ) : (
            <ProjectTable projects={list.data.projects} />
          )}
          {list.data.total_pages > 1 && <Pager list={list.data} noun={t('pagerNoun')} onPage={(page) => go({ ...filter, page })} />}
        </section>
      )}
    </div>
  );
}

function Filters(props: {
  filter: Filter;
  clients: { id: string; name: string }[];
  people: { id: string; name: string }[];
  onWant: () => void;
  onChange: (f: Filter) => void;
}) {
  const { filter, clients, people, onWant, onChange } = props;
  const t = useProjectTexts();
  // Typing searches after a pause (one request, not one per key); the URL keeps the search.
  const [text, setText] = useTypedSearch(filter.search ?? '', (search) => onChange({ ...filter, search: search || undefined }));
  const statuses: SelectOption[] = [
    { id: 'active', label: t('statuses.active') },
    { id: 'archived', label: t('statuses.archived') },
    { id: 'all', label: t('statuses.all') },
  ];
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label={t('filters')}>
      <SearchField value={text} onChange={setText} className="flex flex-col gap-1.5">
        <Label className={fieldLabel}>{t('search')}</Label>
        <Input className={cx(inputBox, '[&::-webkit-search-cancel-button]:hidden')} placeholder={t('searchPlaceholder')} />
      </SearchField>
      <Select
        label={t('client')}
        options={[{ id: 'all', label: t('allClients') }, ...clients.map((c) => ({ id: c.id, label: c.name }))]}
        selectedKey={filter.client_id ?? 'all'}
        onFocus={onWant}
        onOpenChange={onWant}
        onSelectionChange={(key) => onChange({ ...filter, client_id: key === 'all' ? undefined : String(key) })}
      />
      <Select
        label={t('owner')}
        options={[{ id: 'all', label: t('anyone') }, ...people.map((p) => ({ id: p.id, label: p.name }))]}
        selectedKey={filter.owner_id ?? 'all'}
        onFocus={onWant}
        onOpenChange={onWant}
        onSelectionChange={(key) => onChange({ ...filter, owner_id: key === 'all' ? undefined : String(key) })}
      />
      <Select label={t('status')} options={statuses} selectedKey={filter.status} onSelectionChange={(key) => onChange({ ...filter, status: key as Status })} />
    </div>
  );
}

function ProjectTable({ projects }: { projects: ListedProject[] }) {
  const t = useProjectTexts();
  // Billing and budget columns only when the server sent them (they are absent for those who may not see them).
  const showRate = projects.some((p) => p.hourly_rate !== undefined || p.fee !== undefined);
  const showBudget = projects.some((p) => p.budget !== undefined);
  return (
    <div tabIndex={0} role="region" aria-label={t('table')} className={cx('relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs', focusRingCss)}>
      <table data-stack className="w-full min-w-[36rem] border-collapse text-sm">
        <caption className="sr-only">{t('byName')}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">{t('project')}</th>
            <th scope="col" className="px-3 py-2">{t('client')}</th>
            <th scope="col" className="px-3 py-2">{t('owner')}</th>
            {showRate && <th scope="col" className="px-3 py-2">{t('billing')}</th>}
            {showBudget && <th scope="col" className="px-3 py-2 text-right">{t('budget')}</th>}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {projects.map((p) => (
            <ProjectRow key={p.id} project={p} showRate={showRate} showBudget={showBudget} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ProjectRow({ project: p, showRate, showBudget }: { project: ListedProject; showRate: boolean; showBudget: boolean }) {
  const t = useProjectTexts();
  const format = useFormat();
  const currency = p.client.currency ?? 'USD';
  // An internal cost budget is the workspace's money, not the client's.
  const { workspace } = useWorkspaceSession();
  return (
    <tr className="align-top">
      <th scope="row" className="px-3 py-2.5 text-left font-normal">
        <Link href={`/projects/${p.id}`} className="font-medium">
          {p.name}
        </Link>
        {p.code && <span className="ml-2 text-xs text-stone-600">{p.code}</span>}
        {!p.is_active && <span className="ml-2 rounded-sm bg-stone-100 px-1.5 py-0.5 text-xs text-stone-700">{t('archived')}</span>}
      </th>
      <td className="px-3 py-2.5 text-stone-800">{p.client.name}</td>
      <td className="px-3 py-2.5 text-stone-700">{p.owner?.name ?? <span className="text-stone-500">{t('none')}</span>}</td>
      {showRate && (
        <td className="px-3 py-2.5 text-stone-700">
          {p.is_fixed_fee && p.fee != null
            ? t('fixedFee', { amount: format.money(p.fee, currency) })
            : p.bill_by === 'project' && p.hourly_rate != null
              ? t('perHour', { amount: format.money(p.hourly_rate, currency) })
              : t(`billBy.${p.bill_by ?? 'none'}`)}
        </td>
      )}
      {showBudget && (
        <td className="px-3 py-2.5 text-right tabular-nums">
          {p.budget == null ? '' : p.budget_by === 'project_cost' ? format.money(p.budget, workspace.currency) : t('hours', { hours: format.number(p.budget) })}
        </td>
      )}
    </tr>
  );
}
