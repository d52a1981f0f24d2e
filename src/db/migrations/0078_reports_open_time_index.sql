-- Reports on a million entries (issue 24).
--
-- The uninvoiced report prices only open time: billable, unbilled, completed work (then
-- the project and the approval policy decide). Through time_entries_report_idx (0031) it
-- read every entry of the year to keep the tenth that is still open once most of it is
-- billed. This partial index holds only those entries, with the columns the pricing
-- needs, so that part is an index-only scan of the open entries alone. Invoicing an entry
-- (is_billed) takes it out of the index; new entries are unbilled and enter it.
create index time_entries_open_idx on time_entries (company_id, project_id, spent_date)
  include (task_id, user_id, duration_seconds, approval_status)
  where billable and not is_billed and not is_running;
