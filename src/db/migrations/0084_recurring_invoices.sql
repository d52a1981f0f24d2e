-- Issue 25 item 9: recurring invoices. A schedule says when (frequency, anchor
-- day, start and optional end), what (template lines, or the uninvoiced work of
-- chosen projects in the occurrence's period) and whether the invoice is only
-- drafted or also sent. The scheduler (src/modules/billing/recurring-invoices/
-- scheduler.ts) claims a due schedule with FOR UPDATE SKIP LOCKED and, in one
-- transaction, creates the invoice, records the occurrence and advances
-- next_run_date; the unique (schedule, occurrence date) makes a second invoice
-- for one occurrence impossible, whichever process tries.

create table recurring_invoice_schedules (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  client_id uuid not null,
  frequency text not null check (frequency in ('weekly', 'monthly', 'quarterly', 'yearly')),
  anchor_day smallint not null,
  start_date date not null,
  end_date date,
  source text not null check (source in ('lines', 'uninvoiced')),
  line_items jsonb not null default '[]',
  project_ids jsonb not null default '[]',
  time_summary text check (time_summary in ('project', 'task', 'people', 'detailed')),
  expense_summary text check (expense_summary in ('project', 'category', 'people', 'detailed')),
  action text not null check (action in ('draft', 'send')),
  recipients jsonb not null default '[]',
  subject text check (length(subject) <= 1000),
  notes text check (length(notes) <= 10000),
  tax numeric(7, 4) check (tax between 0 and 100),
  tax2 numeric(7, 4) check (tax2 between 0 and 100),
  discount numeric(7, 4) check (discount between 0 and 100),
  is_paused boolean not null default false,
  next_run_date date,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, client_id) references clients (company_id, id),
  check (end_date >= start_date),
  check ((frequency = 'weekly' and anchor_day between 1 and 7) or (frequency <> 'weekly' and anchor_day between 1 and 31)),
  check (source = 'lines' or time_summary is not null or expense_summary is not null),
  check (next_run_date is null or end_date is null or next_run_date <= end_date)
);
create index recurring_invoice_schedules_client_idx on recurring_invoice_schedules (company_id, client_id);
-- What the scheduler scans across workspaces: the running schedules by their next date.
create index recurring_invoice_schedules_due_idx on recurring_invoice_schedules (next_run_date) where not is_paused and next_run_date is not null;

create table recurring_invoice_occurrences (
  company_id uuid not null,
  id uuid not null,
  schedule_id uuid not null,
  occurrence_date date not null,
  period_start date not null,
  period_end date not null,
  invoice_id uuid,
  outcome text not null check (outcome in ('drafted', 'sent', 'skipped')),
  note text check (length(note) <= 2000),
  created_at timestamptz not null default now(),
  primary key (company_id, id),
  unique (company_id, schedule_id, occurrence_date),
  foreign key (company_id, schedule_id) references recurring_invoice_schedules (company_id, id) on delete cascade,
  -- A draft deleted later leaves its occurrence (without invoice): the occurrence happened, and is never made again.
  foreign key (company_id, invoice_id) references invoices (company_id, id) on delete set null (invoice_id),
  check (period_end >= period_start)
);
create index recurring_invoice_occurrences_invoice_idx on recurring_invoice_occurrences (company_id, invoice_id) where invoice_id is not null;

do $$
declare t text;
begin
  foreach t in array array['recurring_invoice_schedules', 'recurring_invoice_occurrences'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;

comment on column recurring_invoice_schedules.anchor_day is
  'weekly: ISO weekday (1 Monday .. 7 Sunday); otherwise the day of the month (29..31: the month''s last day when it is shorter).';
comment on column recurring_invoice_schedules.next_run_date is
  'The next occurrence not yet made; null once the schedule has ended. Advanced in the occurrence''s own transaction.';
comment on column recurring_invoice_occurrences.note is
  'Why an occurrence was skipped (nothing to invoice, a refused invoice) or drafted instead of sent (made late).';
