import { useQuery } from '@tanstack/react-query';
import { Button } from '../../ui/Button.tsx';
import { useLocale } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { rateHistoryQuery, type Project, type RateHistory } from './api.ts';
import { formatDay, formatMoney } from './format.ts';

type Rate = RateHistory['project'][number];

/**
 * Every billable rate of the project, its tasks and its people, with the day each took effect:
 * loaded when opened (the page opens it itself after a rate change).
 */
export function RateHistorySection({ project, open, onOpen }: { project: Project; open: boolean; onOpen: (open: boolean) => void }) {
  const history = useQuery({ ...rateHistoryQuery(project.id), enabled: open });
  const h = history.data;
  const groups: { label: string; rates: Rate[] }[] = h
    ? [
        ...(h.project.length > 0 ? [{ label: 'Project rate', rates: h.project }] : []),
        ...h.tasks.map((t) => ({ label: `Task: ${t.name}`, rates: t.rates })),
        ...h.people.map((p) => ({ label: `Person: ${p.name}`, rates: p.rates })),
      ]
    : [];
  return (
    <section aria-labelledby="rate-history" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="rate-history" className="text-lg font-semibold text-stone-900">
          Rate history
        </h2>
        <Button variant="secondary" aria-expanded={open} aria-controls="rate-history-body" onPress={() => onOpen(!open)}>
          {open ? 'Hide rate history' : 'Show rate history'}
        </Button>
      </div>
      <p className="text-sm text-stone-700">
        A rate applies from its date until the next one. Changing a rate never reprices work dated before the change: that work keeps the rate it had.
      </p>
      <div id="rate-history-body" className="flex flex-col gap-3">
      {open && history.isPending && (
        <p role="status" className="text-sm text-stone-600">
          Loading the rate history…
        </p>
      )}
      {open && history.error && <Alert>{describeError(history.error).message}</Alert>}
      {open && h && groups.length === 0 && <p className="text-sm text-stone-700">No rates set yet.</p>}
      {open && h && groups.length > 0 && (
        <div className="grid gap-3 sm:grid-cols-2">
          {groups.map((g) => (
            <RateTable key={g.label} label={g.label} rates={g.rates} currency={h.currency} />
          ))}
        </div>
      )}
      </div>
    </section>
  );
}

function RateTable({ label, rates, currency }: { label: string; rates: Rate[]; currency: string }) {
  const { locale } = useLocale();
  return (
    <div className="rounded-lg border border-stone-200 bg-white shadow-xs">
      <table className="w-full border-collapse text-sm">
        <caption className="px-3 pt-2 text-left font-medium text-stone-900">{label}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">From</th>
            <th scope="col" className="px-3 py-2 text-right">Hourly rate</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {[...rates].reverse().map((r, i) => (
            <tr key={`${r.effective_from ?? 'start'}-${i}`}>
              <td className="px-3 py-2">{r.effective_from ? formatDay(r.effective_from, locale) : 'The start'}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatMoney(r.hourly_rate, currency, locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
