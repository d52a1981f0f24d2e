import { createContext, Suspense, useContext, type ComponentType } from 'react';
import type { GroupBy, Range } from './api.ts';
import { useToday, useWeekStart } from './parts.tsx';
import { presetOf, type Period } from './period.ts';

/**
 * What a report page shows, as a saved report keeps it: the report, its period (none for
 * the project budget) and the named period those dates are today (none: picked by hand),
 * the time report's grouping, the budget's project filter (true active, false archived,
 * null all). The saved reports area saves it; the app hands its "Save report" to this
 * area (areas never import each other), and each page shows it beside its heading.
 */
export interface ShownReport {
  report: 'time' | 'team' | 'project_budget' | 'uninvoiced' | 'planned_vs_tracked';
  range: Range | null;
  preset: Period | null;
  group_by?: GroupBy;
  is_active?: boolean | null;
}

export type SaveAction = ComponentType<{ shown: ShownReport }>;

/** The save action the app composed in (none: the pages offer no saving). */
export const SaveActionContext = createContext<SaveAction | null>(null);

/** The page's "Save report", when the app has one; the period's name is worked out from today (the workspace's, in its weeks). */
export function SaveReport(shown: Omit<ShownReport, 'preset'>) {
  const Action = useContext(SaveActionContext);
  const day = useToday();
  const weekStart = useWeekStart();
  if (!Action) return null;
  const preset = shown.range ? (presetOf(shown.range, day, weekStart) ?? null) : null;
  return (
    <Suspense fallback={null}>
      <Action shown={{ ...shown, preset }} />
    </Suspense>
  );
}
