import { useFormat } from '../../api/format.ts';
import type { Home } from './api.ts';
import { Section } from './Section.tsx';
import { useHomeTexts } from './texts.ts';

/** The caller's planned hours this week, per project (the planner's assignments of them); shown only when there are some. */
export function PlanSection({ plan }: { plan: Home['plan'] }) {
  const t = useHomeTexts();
  const format = useFormat();
  return (
    <Section title={t('plan.title')}>
      <ul className="divide-y divide-stone-100">
        {plan.map((p) => (
          <li key={p.project.id} className="flex items-center justify-between gap-3 py-2.5">
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-stone-900">{p.project.name}</p>
              <p className="truncate text-xs text-stone-600">{p.project.client_name}</p>
            </div>
            <span className="shrink-0 text-sm font-semibold text-stone-900 tabular-nums">{t('plan.hours', { hours: format.hours(p.planned_hours) })}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
