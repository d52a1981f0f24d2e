-- The reports round each entry's amount to its currency's minor unit, at most cents (whole yen, a
-- euro's cents; src/money.ts entryAmountDigits), where every currency was counted to the cent
-- (22743.71 JPY for work an invoice bills as 22743). The kept totals (0101) were summed the old
-- way: they are emptied, and each report sums its projects again on first use. The currency a
-- project's work is counted in now matters to them, so a change of it makes them stale as a rate
-- change does: the workspace's currency or a client's moves the workspace's generation (rare
-- writes), a project moved to another client leaves the project's stale mark.
delete from project_month_time_totals;
delete from project_time_totals;

drop trigger companies_totals on companies;
create trigger companies_totals after update of rounding, rounding_minutes, approvals_enabled, invoice_before_approval, currency on companies
  for each row when (old.rounding is distinct from new.rounding or old.rounding_minutes is distinct from new.rounding_minutes
    or old.approvals_enabled is distinct from new.approvals_enabled or old.invoice_before_approval is distinct from new.invoice_before_approval
    or old.currency is distinct from new.currency)
  execute function workspace_settings_totals_stale();

drop trigger projects_totals on projects;
create trigger projects_totals after update of bill_by, is_billable, client_id on projects
  for each row when (old.bill_by is distinct from new.bill_by or old.is_billable is distinct from new.is_billable
    or old.client_id is distinct from new.client_id)
  execute function project_billing_totals_stale();

create function client_currency_totals_stale() returns trigger
  language plpgsql as $$
begin
  perform workspace_time_totals_stale(new.company_id);
  return null;
end $$;
create trigger clients_totals after update of currency on clients
  for each row when (old.currency is distinct from new.currency)
  execute function client_currency_totals_stale();
