import { useQuery } from '@tanstack/react-query';
import { Link as AriaLink } from 'react-aria-components';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { buttonClass } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select } from '../../ui/Select.tsx';
import { estimatesQuery, type Estimate, type EstimateState } from './api.ts';
import { StateBadge, STATES } from './StateBadge.tsx';
import { useEstimateTexts } from './texts.ts';

/** The estimates in the caller's reach, newest date first; the state filter in the URL; each row opens the estimate. */
export function EstimatesPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const t = useEstimateTexts();
  const state = (params.get('state') ?? undefined) as EstimateState | undefined;
  const { data: list, error } = useQuery(estimatesQuery(state));

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PageHeading>{t('estimates')}</PageHeading>
        <AriaLink href="/estimates/new" className={buttonClass('primary')}>
          {t('newEstimate')}
        </AriaLink>
      </div>
      {error && !list && <Alert>{describeError(error).message}</Alert>}
      <div className="grid gap-3 sm:grid-cols-2">
        <Select
          label={t('state')}
          options={[{ id: 'all', label: t('allStates') }, ...STATES.map((s) => ({ id: s.id, label: t(`states.${s.id}`) }))]}
          selectedKey={state ?? 'all'}
          onSelectionChange={(key) => navigate(key === 'all' ? '/estimates' : `/estimates?state=${String(key)}`)}
        />
      </div>
      {!list && !error && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loading')}
        </div>
      )}
      {list && (
        <section aria-labelledby="estimates-list" className="flex flex-col gap-3">
          <h2 id="estimates-list" className="sr-only">
            {t('estimates')}
          </h2>
          {list.estimates.length === 0 ? (
            <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
              {state ? (
                <p>
                  {t('noMatch')} <Link href="/estimates">{t('showAll')}</Link>
                </p>
              ) : (
                <p>{t('noneYet')}</p>
              )}
            </div>
          ) : (
            <EstimateTable estimates={list.estimates} />
          )}
        </section>
      )}
    </div>
  );
}

function EstimateTable({ estimates }: { estimates: Estimate[] }) {
  const t = useEstimateTexts();
  const format = useFormat();
  return (
    <div className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs">
      <table data-stack className="w-full min-w-[36rem] border-collapse text-sm">
        <caption className="sr-only">{t('list.caption')}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">{t('list.number')}</th>
            <th scope="col" className="px-3 py-2">{t('list.client')}</th>
            <th scope="col" className="px-3 py-2">{t('list.issued')}</th>
            <th scope="col" className="px-3 py-2 text-right">{t('list.amount')}</th>
            <th scope="col" className="px-3 py-2">{t('list.state')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {estimates.map((e) => (
            <tr key={e.id} className="align-top">
              <th scope="row" className="px-3 py-2.5 text-left font-medium whitespace-nowrap">
                <Link href={`/estimates/${e.id}`} aria-label={t('list.rowLink', { number: e.number, client: e.client.name })}>
                  {e.number}
                </Link>
                {e.subject && <span className="block text-xs font-normal text-stone-600">{e.subject}</span>}
              </th>
              <td className="px-3 py-2.5 text-stone-900">{e.client.name}</td>
              <td className="px-3 py-2.5 whitespace-nowrap">{format.day(e.issue_date)}</td>
              <td className="px-3 py-2.5 text-right font-medium whitespace-nowrap tabular-nums">{format.money(e.amount, e.currency)}</td>
              <td className="px-3 py-2.5">
                <StateBadge state={e.state} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
