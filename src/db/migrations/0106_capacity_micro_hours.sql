-- Working patterns and time off keep hours as time entries do, to the micro-hour
-- (docs/decisions.md, "Review of 2026-12-06, second"). Hundredths could not hold a typed 7:20 a
-- day: it was kept as 7.33, a week of 36:39 where the form had shown 36:40, and capacity, the
-- planner and the approvals' expected hours followed the rounded figure. Existing values are
-- hundredths and stay exactly what they are.
alter table planning_working_patterns
  alter column monday type numeric(8, 6),
  alter column tuesday type numeric(8, 6),
  alter column wednesday type numeric(8, 6),
  alter column thursday type numeric(8, 6),
  alter column friday type numeric(8, 6),
  alter column saturday type numeric(8, 6),
  alter column sunday type numeric(8, 6);
alter table planning_time_off alter column hours type numeric(8, 6);
