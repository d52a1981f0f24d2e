-- Issue 26 item 3: saved reports. A definition (which report, its period as a
-- relative range or fixed dates, its grouping or project filter), private to its
-- owner or shared with the workspace; opened later it is run afresh with the
-- opener's own permissions. A schedule e-mails it as CSV to its owner once per
-- week or month: the scheduler (src/modules/reports/saved-reports/scheduler.ts)
-- claims a due report with FOR UPDATE SKIP LOCKED and, in one transaction,
-- records the delivery (unique per report and period start), enqueues the e-mail
-- in the outbox and advances next_send_date, so no period is e-mailed twice,
-- whichever process tries.

create table saved_reports (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  owner_id uuid not null,
  name text not null check (length(name) between 1 and 200),
  report text not null check (report in ('time', 'team', 'project_budget', 'uninvoiced')),
  period text check (period in ('this_month', 'last_month', 'this_quarter', 'last_quarter', 'this_year', 'last_year', 'last_365_days', 'custom')),
  from_date date,
  to_date date,
  group_by text check (group_by in ('project', 'task', 'person', 'client')),
  is_active boolean,
  visibility text not null default 'private' check (visibility in ('private', 'workspace')),
  schedule text not null default 'none' check (schedule in ('none', 'weekly', 'monthly')),
  next_send_date date,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  -- The owner's membership: a person removed from the workspace takes their reports along.
  foreign key (company_id, owner_id) references memberships (company_id, user_id) on delete cascade,
  check ((report = 'project_budget') = (period is null)),
  check ((period = 'custom') = (from_date is not null and to_date is not null)),
  check (period is not distinct from 'custom' or (from_date is null and to_date is null)),
  check (to_date >= from_date),
  check (report = 'time' or group_by is null),
  check (report = 'project_budget' or is_active is null),
  check ((schedule = 'none') = (next_send_date is null))
);
create index saved_reports_owner_idx on saved_reports (company_id, owner_id);
-- What the scheduler scans across workspaces: the scheduled reports by their next date.
create index saved_reports_due_idx on saved_reports (next_send_date) where next_send_date is not null;

create table saved_report_deliveries (
  company_id uuid not null,
  id uuid not null,
  saved_report_id uuid not null,
  period_start date not null,
  range_from date,
  range_to date,
  outcome text not null check (outcome in ('sent', 'skipped')),
  note text check (length(note) <= 2000),
  created_at timestamptz not null default now(),
  primary key (company_id, id),
  unique (company_id, saved_report_id, period_start),
  foreign key (company_id, saved_report_id) references saved_reports (company_id, id) on delete cascade
);

do $$
declare t text;
begin
  foreach t in array array['saved_reports', 'saved_report_deliveries'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;

comment on column saved_reports.next_send_date is
  'The first day of the next week or month whose e-mail is not yet sent; null when not scheduled. Advanced in the delivery''s own transaction.';
comment on column saved_reports.is_active is
  'project_budget only: true active projects, false archived ones, null all (the API''s is_active filter).';
