-- Issue 24: indexes that every create paid for and no plan needs (docs/decisions.md, "Hot paths:
-- redundant indexes dropped").
--
-- - time_entries_project_date_idx and expenses_project_date_idx, (company_id, project_id,
--   spent_date) from 0010, have the very key of time_entries_report_idx and
--   expenses_report_idx (0031), which add included columns: every scan they served, the report
--   indexes serve in the same order. test/schema-indexes.test.ts keeps such pairs from coming back.
-- - time_entries_uninvoiced_idx, the same key where not is_billed and billable, from 0010: the
--   invoice import and the reports read time_entries_open_idx (0078: the same key, the same rows
--   less running timers); what is left is a rate change re-pricing a project's unbilled entries,
--   which time_entries_report_idx serves with a filter.
--
-- A completed time entry's insert wrote ten of its table's indexes; now eight.
drop index if exists time_entries_project_date_idx;
drop index if exists time_entries_uninvoiced_idx;
drop index if exists expenses_project_date_idx;
