-- The reports count an entry's hours as the time entries API shows them: as entered when they
-- were (hours_entered), else from its seconds, with one rounding rule for the entries, invoice
-- imports, the export and the reports (docs/decisions.md, "Review of 2026-12-06: hours and
-- rounding"). The kept totals were summed by the rule before; emptied here, every project's are
-- summed again by the next report that reads them (src/modules/reports/reports/totals.ts).
delete from project_month_time_totals;
delete from project_time_totals;
