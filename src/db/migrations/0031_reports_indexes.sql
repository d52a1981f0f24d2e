-- Reports at scale (bench/reports.ts, 1,000,000 entries): the uninvoiced and
-- budget reports read every entry of the projects in scope (of a date range,
-- or all of them) but only a few narrow columns. This covering index lets them
-- run as index-only scans per project instead of fetching the wide heap rows
-- (notes, references, metadata) in random order; for a full budget report that
-- fetch was most of the time.
create index time_entries_report_idx on time_entries (company_id, project_id, spent_date)
  include (task_id, user_id, duration_seconds, billable, is_billed, is_running, approval_status);
create index expenses_report_idx on expenses (company_id, project_id, spent_date)
  include (total_cost, billable, is_billed, approval_status);
