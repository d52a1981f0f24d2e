-- Issue 24: the project budget and uninvoiced reports read kept totals of time for the months
-- that are over, instead of every entry since the project began (docs/decisions.md, "Hot paths:
-- kept time totals for the reports").
--
-- Totals are filled by the reports themselves (src/modules/reports/reports/totals.ts) for the
-- months before the horizon (report_totals_horizon(): the first day of the previous month, by the
-- database clock in UTC) and written by nothing else. They are derived data, rounded by the
-- workspace rule and priced at the rates in force on each entry's date, so every write that could
-- change them says so in its own transaction, and a report sums a project again before it uses
-- totals that are stale:
-- - a write to a time entry dated before the current month, a change of a project's billing
--   (bill_by, is_billable) or of a rate on it leaves a stale mark for the project (an insert into
--   project_time_totals_stale, one per project and transaction: no row is updated, so concurrent
--   writers never wait for each other); entries of the current month, nearly every write, leave
--   nothing;
-- - a change of the rounding rule, of which approval states are invoiced, or of a person's default
--   or cost rate moves the workspace's generation (rare writes).
-- A report consumes the marks it saw before it reads the entries: a writer that commits later
-- leaves its mark in place for the next report, so the totals can be stale but never wrong.

create function report_totals_horizon() returns date
  language sql stable parallel safe
  as $$ select (date_trunc('month', now() at time zone 'UTC') - interval '1 month')::date $$;

-- The workspace's generation of the totals.
create table time_totals_generations (
  company_id uuid primary key references companies (id) on delete cascade,
  generation bigint not null default 0
);

-- Projects whose totals are stale since a report last summed them (no key: writers only append).
create table project_time_totals_stale (
  company_id uuid not null,
  project_id uuid not null
);
create index project_time_totals_stale_idx on project_time_totals_stale (company_id, project_id);

-- Per project: the totals last summed (at which workspace generation, up to which horizon), all
-- time before the horizon, for the budget report: hours of completed entries, their fees at the
-- billable rates (billable entries) and their internal cost.
create table project_time_totals (
  company_id uuid not null references companies (id) on delete cascade,
  project_id uuid not null,
  company_generation bigint not null,
  horizon date not null,
  spent_micro bigint not null,
  fee_cents bigint not null,
  cost_cents bigint not null,
  primary key (company_id, project_id),
  foreign key (company_id, project_id) references projects (company_id, id) on delete cascade
);

-- Per project and month before the horizon, for the uninvoiced report: hours of completed,
-- non-rejected entries, and of open ones (billable, unbilled, in an invoiced approval state, on a
-- billable project) with their amount at the billable rates. Months without entries have no row.
create table project_month_time_totals (
  company_id uuid not null,
  project_id uuid not null,
  month date not null,
  total_micro bigint not null,
  open_micro bigint not null,
  open_cents bigint,
  primary key (company_id, project_id, month),
  foreign key (company_id, project_id) references projects (company_id, id) on delete cascade
);

do $$
declare t text;
begin
  foreach t in array array['time_totals_generations', 'project_time_totals_stale', 'project_time_totals', 'project_month_time_totals'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;

-- The workspace's totals are stale. Not while the workspace itself is being deleted.
create function workspace_time_totals_stale(c uuid) returns void
  language sql as $$
  insert into time_totals_generations as g (company_id)
    select c where exists (select 1 from companies where id = c)
    on conflict (company_id) do update set generation = g.generation + 1
$$;

-- A project's totals are stale: one mark per project and transaction (an import or an approval
-- of many entries leaves one), visible with the transaction's writes when it commits. The
-- projects marked so far are a transaction-local setting, so the check costs no table read.
create function project_time_totals_stale(c uuid, p uuid) returns void
  language plpgsql as $$
declare
  marked text := coalesce(current_setting('app.stale_projects', true), '');
begin
  if strpos(marked, p::text) = 0 then
    insert into project_time_totals_stale (company_id, project_id) values (c, p);
    perform set_config('app.stale_projects', marked || p::text || ',', true);
  end if;
end $$;

create function workspace_settings_totals_stale() returns trigger
  language plpgsql as $$
begin
  perform workspace_time_totals_stale(new.id);
  return null;
end $$;

create function project_billing_totals_stale() returns trigger
  language plpgsql as $$
begin
  perform project_time_totals_stale(new.company_id, new.id);
  return null;
end $$;

-- A rate of a project (its own, a task's or a person's on it) prices that project alone; a
-- person's default or cost rate prices every project they worked on: the workspace's.
create function rate_totals_stale() returns trigger
  language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    if old.project_id is null then perform workspace_time_totals_stale(old.company_id);
    else perform project_time_totals_stale(old.company_id, old.project_id);
    end if;
  end if;
  if tg_op <> 'DELETE' then
    if new.project_id is null then perform workspace_time_totals_stale(new.company_id);
    else perform project_time_totals_stale(new.company_id, new.project_id);
    end if;
  end if;
  return null;
end $$;

-- A time entry dated before the current month: its project's totals (old and new project) are
-- stale. The marking of project_time_totals_stale() written out, for the write path: one
-- statement (the insert) where calling it costs three.
create function time_entry_totals_stale() returns trigger
  language plpgsql as $$
declare
  current_month date := date_trunc('month', now() at time zone 'UTC')::date;
  marked text := coalesce(current_setting('app.stale_projects', true), '');
begin
  if tg_op <> 'INSERT' and old.spent_date < current_month and strpos(marked, old.project_id::text) = 0 then
    insert into project_time_totals_stale (company_id, project_id) values (old.company_id, old.project_id);
    marked := set_config('app.stale_projects', marked || old.project_id::text || ',', true);
  end if;
  if tg_op <> 'DELETE' and new.spent_date < current_month and strpos(marked, new.project_id::text) = 0 then
    insert into project_time_totals_stale (company_id, project_id) values (new.company_id, new.project_id);
    marked := set_config('app.stale_projects', marked || new.project_id::text || ',', true);
  end if;
  return null;
end $$;

-- WHEN keeps this month's entries (nearly every write) from calling the function at all.
create trigger time_entries_totals_insert after insert on time_entries for each row
  when (new.spent_date < date_trunc('month', now() at time zone 'UTC')::date)
  execute function time_entry_totals_stale();
create trigger time_entries_totals_update after update on time_entries for each row
  when (old.spent_date < date_trunc('month', now() at time zone 'UTC')::date
    or new.spent_date < date_trunc('month', now() at time zone 'UTC')::date)
  execute function time_entry_totals_stale();
create trigger time_entries_totals_delete after delete on time_entries for each row
  when (old.spent_date < date_trunc('month', now() at time zone 'UTC')::date)
  execute function time_entry_totals_stale();

create trigger rates_totals after insert or update or delete on rates for each row
  execute function rate_totals_stale();
create trigger companies_totals after update of rounding, rounding_minutes, approvals_enabled, invoice_before_approval on companies
  for each row when (old.rounding is distinct from new.rounding or old.rounding_minutes is distinct from new.rounding_minutes
    or old.approvals_enabled is distinct from new.approvals_enabled or old.invoice_before_approval is distinct from new.invoice_before_approval)
  execute function workspace_settings_totals_stale();
create trigger projects_totals after update of bill_by, is_billable on projects
  for each row when (old.bill_by is distinct from new.bill_by or old.is_billable is distinct from new.is_billable)
  execute function project_billing_totals_stale();
