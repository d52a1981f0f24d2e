import { createContext, useContext } from 'react';

/**
 * The first day of a calendar's week, React Aria's `firstDayOfWeek`. Every date picker's
 * calendar starts its weeks on the workspace's `week_start` (Settings → Workspace), as the
 * timesheet, the planner and approvals count weeks, not on the language's first day: the
 * signed-in shell provides it from the session, so no page passes it. Without it (outside the
 * shell) a calendar follows the language.
 */
export type FirstDayOfWeek = 'sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat';

export const WeekStartContext = createContext<FirstDayOfWeek | undefined>(undefined);

const FIRST_DAYS: Record<string, FirstDayOfWeek> = {
  monday: 'mon',
  tuesday: 'tue',
  wednesday: 'wed',
  thursday: 'thu',
  friday: 'fri',
  saturday: 'sat',
  sunday: 'sun',
};

/** React Aria's name of a workspace's `week_start` (`sunday` -> `sun`); undefined for a value it does not know, so the language decides. */
export const firstDayOfWeek = (weekStart: string | undefined): FirstDayOfWeek | undefined => (weekStart && Object.hasOwn(FIRST_DAYS, weekStart) ? FIRST_DAYS[weekStart] : undefined);

/** The calendars' first day of the week inside the shell. */
export const useFirstDayOfWeek = () => useContext(WeekStartContext);
