import { useFormat } from '../../api/format.ts';
import type { DayRange, Grouping, NamedPeriod, ReportKind, SavedPeriod } from './definition.ts';
import { useSavedReportTexts } from './texts.ts';

interface Definition {
  report: ReportKind;
  period: SavedPeriod | null;
  range: DayRange | null;
  group_by?: Grouping | null;
  is_active?: boolean | null;
}

/** How a saved report's definition reads: its report ("Time by task"), its named period and dates, or the budget's project filter. */
export function useLabels() {
  const t = useSavedReportTexts();
  const format = useFormat();
  const kind = (report: ReportKind, groupBy: Grouping | null | undefined) => (report === 'time' ? t(`kinds.time.${groupBy ?? 'project'}`) : t(`kinds.${report}`));
  const periodName = (p: NamedPeriod) => t(`periods.${p}`);
  /** The named period ("Last month") or the budget's filter ("Active projects"), and the dates (none for the budget). */
  const when = (d: Definition): { name: string | null; dates: string | null } => {
    if (d.report === 'project_budget') return { name: t(`active.${d.is_active === true ? 'true' : d.is_active === false ? 'false' : 'all'}`), dates: null };
    return {
      name: d.period && d.period !== 'custom' ? periodName(d.period) : null,
      dates: d.range ? format.dayRange(d.range.from, d.range.to) : null,
    };
  };
  return { kind, periodName, when };
}

/** "Time by task · Last month · 1–30 Nov 2026": what a saved report runs, its dates never broken across lines. */
export function DefinitionText({ definition: d }: { definition: Definition }) {
  const labels = useLabels();
  const { name, dates } = labels.when(d);
  return (
    <>
      {[labels.kind(d.report, d.group_by), name].filter(Boolean).join(' · ')}
      {dates && (
        <>
          {' · '}
          <span className="whitespace-nowrap">{dates}</span>
        </>
      )}
    </>
  );
}
