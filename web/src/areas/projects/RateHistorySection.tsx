import { useQuery } from '@tanstack/react-query';
import { Button } from '../../ui/Button.tsx';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { rateHistoryQuery, type Project, type RateHistory } from './api.ts';
import { useFormat } from '../../api/format.ts';
import { useProjectTexts } from './texts.ts';

type Rate = RateHistory['project'][number];

/**
 * Every billable rate of the project, its tasks and its people, with the day each took effect:
 * loaded when opened (the page opens it itself after a rate change).
 */
export function RateHistorySection({ project, open, onOpen }: { project: Project; open: boolean; onOpen: (open: boolean) => void }) {
  const t = useProjectTexts();
  const history = useQuery({ ...rateHistoryQuery(project.id), enabled: open });
  const h = history.data;
  const groups: { label: string; rates: Rate[] }[] = h
    ? [
        ...(h.project.length > 0 ? [{ label: t('rates.projectRate'), rates: h.project }] : []),
        ...h.tasks.map((task) => ({ label: t('rates.taskNamed', { name: task.name }), rates: task.rates })),
        ...h.people.map((p) => ({ label: t('rates.personNamed', { name: p.name }), rates: p.rates })),
      ]
    : [];
  return (
    <section aria-labelledby="rate-history" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="rate-history" className="text-lg font-semibold text-stone-900">
          {t('rates.heading')}
        </h2>
        <Button variant="secondary" aria-expanded={open} aria-controls="rate-history-body" onPress={() => onOpen(!open)}>
          {open ? t('rates.hide') : t('rates.show')}
        </Button>
      </div>
      <p className="text-sm text-stone-700">
        {t('rates.explained')}
      </p>
      <div id="rate-history-body" className="flex flex-col gap-3">
      {open && history.isPending && (
        <p role="status" className="text-sm text-stone-600">
          {t('rates.loading')}
        </p>
      )}
      {open && history.error && <Alert>{describeError(history.error).message}</Alert>}
      {open && h && groups.length === 0 && <p className="text-sm text-stone-700">{t('rates.none')}</p>}
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
  const t = useProjectTexts();
  const format = useFormat();
  return (
    <div className="rounded-lg border border-stone-200 bg-white shadow-xs">
      <table className="w-full border-collapse text-sm">
        <caption className="px-3 pt-2 text-left font-medium text-stone-900">{label}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">{t('rates.from')}</th>
            <th scope="col" className="px-3 py-2 text-right">{t('rates.hourlyRate')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {[...rates].reverse().map((r, i) => (
            <tr key={`${r.effective_from ?? 'start'}-${i}`}>
              <td className="px-3 py-2">{r.effective_from ? format.day(r.effective_from) : t('rates.theStart')}</td>
              <td className="px-3 py-2 text-right tabular-nums">{format.money(r.hourly_rate, currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
