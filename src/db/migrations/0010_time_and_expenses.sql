-- Time entries (completed entries and live timers), expense categories and
-- expenses. Both carry the approval state (approvals issue) and the billed flag
-- (invoices issue); the invoice columns are filled by the invoice import.

create table time_entries (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  user_id uuid not null,
  project_id uuid not null,
  task_id uuid not null,
  spent_date date not null,
  -- Completed time in seconds; for a running timer, the time of earlier runs
  -- (a restart continues the entry) and the current run counts from timer_started_at.
  duration_seconds integer not null default 0 check (duration_seconds between 0 and 86400),
  -- Hours exactly as entered (null when derived from duration or a timer).
  hours_entered numeric(9, 6) check (hours_entered between 0 and 24),
  is_running boolean not null default false,
  timer_started_at timestamptz,
  -- Wall-clock HH:mm in the workspace time zone.
  started_time text check (started_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  ended_time text check (ended_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  notes text check (length(notes) <= 10000),
  billable boolean not null,
  -- The billable rate in force on spent_date when the entry was priced (historical).
  billable_rate numeric(12, 2),
  source text not null check (source in ('web', 'cli', 'api', 'agent', 'calendar', 'desktop')),
  metadata jsonb check (metadata is null or jsonb_typeof(metadata) = 'object'),
  external_reference jsonb check (external_reference is null or jsonb_typeof(external_reference) = 'object'),
  external_reference_id text generated always as (external_reference ->> 'id') stored,
  external_reference_service text generated always as (external_reference ->> 'service') stored,
  approval_status text not null default 'unsubmitted'
    check (approval_status in ('unsubmitted', 'submitted', 'approved', 'rejected')),
  is_billed boolean not null default false,
  invoice_id uuid,
  invoice_line_id uuid,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, user_id) references memberships (company_id, user_id),
  foreign key (company_id, project_id) references projects (company_id, id) on delete cascade,
  foreign key (company_id, task_id) references tasks (company_id, id),
  check (is_running = (timer_started_at is not null)),
  check (not (is_running and is_billed))
);
-- One running timer per user, enforced by the database, not by a check in code.
create unique index time_entries_one_running_timer on time_entries (company_id, user_id) where is_running;
create index time_entries_user_date_idx on time_entries (company_id, user_id, spent_date);
create index time_entries_date_idx on time_entries (company_id, spent_date, id);
create index time_entries_project_date_idx on time_entries (company_id, project_id, spent_date);
create index time_entries_updated_idx on time_entries (company_id, updated_at);
create index time_entries_external_ref_idx on time_entries (company_id, external_reference_service, external_reference_id)
  where external_reference_id is not null;
create index time_entries_uninvoiced_idx on time_entries (company_id, project_id, spent_date)
  where not is_billed and billable;

create table expense_categories (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null check (length(name) between 1 and 255),
  unit_name text check (length(unit_name) <= 64),
  unit_price numeric(12, 2) check (unit_price >= 0),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  check ((unit_name is null) = (unit_price is null))
);
create unique index expense_categories_name_key on expense_categories (company_id, lower(name));

create table expenses (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  user_id uuid not null,
  project_id uuid not null,
  expense_category_id uuid not null,
  spent_date date not null,
  units numeric(12, 4) check (units > 0),
  total_cost numeric(14, 2) not null check (total_cost >= 0),
  notes text check (length(notes) <= 10000),
  billable boolean not null default true,
  source text not null check (source in ('web', 'cli', 'api', 'agent')),
  metadata jsonb check (metadata is null or jsonb_typeof(metadata) = 'object'),
  receipt_file_id uuid,
  approval_status text not null default 'unsubmitted'
    check (approval_status in ('unsubmitted', 'submitted', 'approved', 'rejected')),
  is_billed boolean not null default false,
  invoice_id uuid,
  invoice_line_id uuid,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, user_id) references memberships (company_id, user_id),
  foreign key (company_id, project_id) references projects (company_id, id) on delete cascade,
  foreign key (company_id, expense_category_id) references expense_categories (company_id, id),
  foreign key (company_id, receipt_file_id) references files (company_id, id)
);
create index expenses_user_date_idx on expenses (company_id, user_id, spent_date);
create index expenses_date_idx on expenses (company_id, spent_date, id);
create index expenses_project_date_idx on expenses (company_id, project_id, spent_date);
create index expenses_updated_idx on expenses (company_id, updated_at);

do $$
declare t text;
begin
  foreach t in array array['time_entries', 'expense_categories', 'expenses'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;
