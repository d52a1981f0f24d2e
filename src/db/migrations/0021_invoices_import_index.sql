-- Uninvoiced expenses of a project by date, as time_entries_uninvoiced_idx does for
-- time: what an invoice import (line_items_import) and the uninvoiced report scan.
create index if not exists invoice_import_expenses_idx on expenses (company_id, project_id, spent_date)
  where not is_billed and billable;
