-- Saved reports of planned against tracked hours (Reports → Planned vs tracked): a fifth
-- report over a period, saved and e-mailed as CSV like the others. Only the closed set of
-- report kinds changes; its other checks (a period for every report but the project budget,
-- grouping for time only, the active filter for the budget only) hold for it as they are.
alter table saved_reports drop constraint saved_reports_report_check;
alter table saved_reports add constraint saved_reports_report_check
  check (report in ('time', 'team', 'project_budget', 'uninvoiced', 'planned_vs_tracked'));
