-- Invoices, their lines, sends (messages) and payments. Imported lines link the
-- time entries and expenses they bill (time_entries.invoice_id / invoice_line_id,
-- same on expenses); deleting a draft releases them.

create table invoices (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  client_id uuid not null,
  number text not null check (length(number) between 1 and 64),
  state text not null default 'draft' check (state in ('draft', 'open', 'paid', 'closed', 'voided')),
  subject text check (length(subject) <= 1000),
  issue_date date not null,
  due_date date not null,
  payment_term text check (payment_term in ('upon_receipt', 'net_15', 'net_30', 'net_45', 'net_60', 'custom')),
  currency char(3) not null check (currency ~ '^[A-Z]{3}$'),
  purchase_order text check (length(purchase_order) <= 255),
  tax numeric(7, 4) check (tax between 0 and 100),
  tax2 numeric(7, 4) check (tax2 between 0 and 100),
  discount numeric(7, 4) check (discount between 0 and 100),
  notes text check (length(notes) <= 10000),
  period_start date,
  period_end date,
  service_period_start date,
  service_period_end date,
  created_by uuid,
  sent_at timestamptz,
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, client_id) references clients (company_id, id),
  check (due_date >= issue_date),
  check (period_end >= period_start),
  check (service_period_end >= service_period_start)
);
create unique index invoices_number_key on invoices (company_id, number);
create index invoices_client_idx on invoices (company_id, client_id);
create index invoices_issue_date_idx on invoices (company_id, issue_date);
create index invoices_updated_idx on invoices (company_id, updated_at);

create table invoice_line_items (
  company_id uuid not null,
  id uuid not null,
  invoice_id uuid not null,
  kind text not null default 'Service' check (length(kind) between 1 and 64),
  description text check (length(description) <= 10000),
  quantity numeric(14, 4) not null default 1 check (quantity >= 0),
  unit_price numeric(14, 4) not null default 0 check (unit_price >= 0),
  effect text not null default 'charge' check (effect in ('charge', 'credit')),
  taxed boolean not null default false,
  taxed2 boolean not null default false,
  -- Historical lines outlive their project (project delete keeps them).
  project_id uuid,
  sort_order integer not null default 0,
  -- 'time' or 'expense' for imported lines (null for explicit lines)
  import_source text check (import_source in ('time', 'expense')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, invoice_id) references invoices (company_id, id) on delete cascade,
  foreign key (company_id, project_id) references projects (company_id, id) on delete set null (project_id)
);
create index invoice_line_items_invoice_idx on invoice_line_items (company_id, invoice_id, sort_order);
create index invoice_line_items_project_idx on invoice_line_items (company_id, project_id);

create table invoice_messages (
  company_id uuid not null,
  id uuid not null,
  invoice_id uuid not null,
  event_type text not null check (event_type in ('send', 'reminder', 'thank_you')),
  recipients jsonb not null,
  cc_recipients jsonb not null default '[]',
  subject text,
  body text,
  attach_pdf boolean not null default true,
  attach_expense_receipts boolean not null default true,
  send_me_a_copy boolean not null default false,
  sent_by uuid,
  outbox_id uuid,
  created_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, invoice_id) references invoices (company_id, id) on delete cascade
);
create index invoice_messages_invoice_idx on invoice_messages (company_id, invoice_id, created_at);

-- Payments are not recorded through the API; they exist for due amounts and the paid state.
create table invoice_payments (
  company_id uuid not null,
  id uuid not null,
  invoice_id uuid not null,
  amount numeric(14, 2) not null check (amount > 0),
  paid_date date not null,
  notes text,
  created_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, invoice_id) references invoices (company_id, id) on delete cascade
);

alter table time_entries
  add foreign key (company_id, invoice_id) references invoices (company_id, id) on delete set null (invoice_id),
  add foreign key (company_id, invoice_line_id) references invoice_line_items (company_id, id) on delete set null (invoice_line_id);
alter table expenses
  add foreign key (company_id, invoice_id) references invoices (company_id, id) on delete set null (invoice_id),
  add foreign key (company_id, invoice_line_id) references invoice_line_items (company_id, id) on delete set null (invoice_line_id);
create index time_entries_invoice_idx on time_entries (company_id, invoice_id) where invoice_id is not null;
create index expenses_invoice_idx on expenses (company_id, invoice_id) where invoice_id is not null;

do $$
declare t text;
begin
  foreach t in array array['invoices', 'invoice_line_items', 'invoice_messages', 'invoice_payments'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;
