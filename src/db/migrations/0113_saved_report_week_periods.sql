-- Saved reports of this week and last week (Reports' period picker): two more named periods,
-- resolved like the others each time the report is opened or sent, in the workspace's weeks
-- (week_start). Only the closed set of period names changes; a period's other checks (custom
-- with both dates, a named one with none) hold for them as they are.
alter table saved_reports drop constraint saved_reports_period_check;
alter table saved_reports add constraint saved_reports_period_check
  check (period in ('this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'last_quarter', 'this_year', 'last_year', 'last_365_days', 'custom'));
