-- Budget report at scale (bench/reports.ts, 1,000,000 entries): hours budgets
-- (project, task, person, none: two thirds of the projects) sum every
-- completed entry of the project, or of the current month for monthly
-- budgets, and need only its duration. This narrow partial index (about half
-- the size of time_entries_report_idx from 0031) lets that branch read half
-- the pages as an index-only scan. Fee and cost budgets still use 0031's
-- index (they need the person, task and billable flag).
create index time_entries_budget_idx on time_entries (company_id, project_id, spent_date)
  include (duration_seconds) where not is_running;
