-- Estimates (issue 25 item 7): a quote to a client with explicit lines and the
-- invoices' arithmetic, numbered in their own sequence, sent through the outbox,
-- answered (accepted or declined), and an accepted one converted to a draft
-- invoice once (converted_invoice_id).

create table estimates (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  client_id uuid not null,
  number text not null check (length(number) between 1 and 64),
  state text not null default 'draft' check (state in ('draft', 'sent', 'accepted', 'declined')),
  subject text check (length(subject) <= 1000),
  issue_date date not null,
  currency char(3) not null check (currency ~ '^[A-Z]{3}$'),
  tax numeric(7, 4) not null default 0 check (tax between 0 and 100),
  tax2 numeric(7, 4) not null default 0 check (tax2 between 0 and 100),
  discount numeric(7, 4) not null default 0 check (discount between 0 and 100),
  notes text check (length(notes) <= 10000),
  created_by uuid,
  sent_at timestamptz,
  accepted_at timestamptz,
  declined_at timestamptz,
  answered_by_client boolean,
  converted_invoice_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, client_id) references clients (company_id, id),
  -- A deleted draft invoice frees the estimate to be converted again.
  foreign key (company_id, converted_invoice_id) references invoices (company_id, id) on delete set null (converted_invoice_id)
);
create unique index estimates_number_key on estimates (company_id, number);
create index estimates_client_idx on estimates (company_id, client_id);
create index estimates_issue_date_idx on estimates (company_id, issue_date);

comment on column estimates.answered_by_client is
  'Who recorded the answer (0083): true when the client accepted or declined (its page), false when a user recorded it; null unanswered.';
comment on column estimates.converted_invoice_id is
  'The draft invoice the accepted estimate became (0083); null until converted, or again when that draft is deleted.';

create table estimate_line_items (
  company_id uuid not null,
  id uuid not null,
  estimate_id uuid not null,
  kind text not null default 'Service' check (length(kind) between 1 and 64),
  description text check (length(description) <= 10000),
  quantity numeric(14, 4) not null default 1 check (quantity >= 0),
  unit_price numeric(14, 4) not null default 0 check (unit_price >= 0),
  taxed boolean not null default true,
  taxed2 boolean not null default true,
  project_id uuid,
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, estimate_id) references estimates (company_id, id) on delete cascade,
  foreign key (company_id, project_id) references projects (company_id, id) on delete set null (project_id)
);
create index estimate_line_items_estimate_idx on estimate_line_items (company_id, estimate_id, sort_order);

do $$
declare t text;
begin
  foreach t in array array['estimates', 'estimate_line_items'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;
