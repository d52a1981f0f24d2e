-- Foundation: workspaces (companies) and their settings, users and memberships,
-- manager-teammate assignments, credentials, idempotency records, files, the
-- e-mail outbox and the audit log.
--
-- Every tenant table leads with company_id: its primary, unique and foreign keys
-- include it, so the schema can be distributed by tenant. Row-level security on
-- company_id is the second wall behind the query filters: the application runs
-- tenant work as the role sheaf_app with app.company_id set for the transaction.

create function app_company() returns uuid
  language sql stable
  as $$ select nullif(current_setting('app.company_id', true), '')::uuid $$;

create table companies (
  id uuid primary key,
  name text not null check (length(name) between 1 and 255),
  address text check (length(address) <= 2000),
  timezone text not null default 'UTC',
  currency char(3) not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
  week_start text not null default 'monday' check (week_start in ('monday', 'sunday', 'saturday')),
  rounding text not null default 'none' check (rounding in ('none', 'up', 'nearest', 'down')),
  rounding_minutes integer not null default 15 check (rounding_minutes between 1 and 60),
  approvals_enabled boolean not null default true,
  allow_past_timer_starts boolean not null default false,
  invoice_before_approval boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- A person's identity, shared by the workspaces they belong to.
create table users (
  id uuid primary key,
  email text not null check (email = lower(email) and length(email) between 3 and 320),
  first_name text not null check (length(first_name) between 1 and 255),
  last_name text not null default '' check (length(last_name) <= 255),
  user_type text not null default 'human' check (user_type in ('human', 'agent')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_email_key on users (email);

-- A user's place in one workspace: role, manager permission flags, contractor and active flags.
create table memberships (
  company_id uuid not null references companies (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  role text not null check (role in ('owner', 'administrator', 'manager', 'member', 'client')),
  permissions text[] not null default '{}' check (
    permissions <@ array['edit_projects', 'edit_clients_and_tasks', 'view_billable_rates',
                         'view_invoices', 'approve_managed_projects', 'view_internal_costs']::text[]
  ),
  is_contractor boolean not null default false,
  is_active boolean not null default true,
  expected_weekly_hours numeric(6, 2) check (expected_weekly_hours between 0 and 168),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, user_id)
);
create index memberships_user_idx on memberships (user_id);

create table teammate_assignments (
  company_id uuid not null,
  manager_id uuid not null,
  teammate_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (company_id, manager_id, teammate_id),
  foreign key (company_id, manager_id) references memberships (company_id, user_id) on delete cascade,
  foreign key (company_id, teammate_id) references memberships (company_id, user_id) on delete cascade,
  check (manager_id <> teammate_id)
);
create index teammate_assignments_teammate_idx on teammate_assignments (company_id, teammate_id);

-- API keys. Only a SHA-256 hash of the secret is stored; the secret is shown once.
-- A rotation creates a new row in the same family and gives the old one expires_at.
create table credentials (
  company_id uuid not null,
  id uuid not null,
  user_id uuid not null,
  kind text not null check (kind in ('integration', 'personal')),
  name text not null default '' check (length(name) <= 255),
  prefix text not null,
  secret_hash bytea not null,
  family_id uuid not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  replaced_at timestamptz,
  revoked_at timestamptz,
  primary key (company_id, id),
  unique (company_id, secret_hash),
  foreign key (company_id, user_id) references memberships (company_id, user_id) on delete cascade
);
-- One live personal key per user and workspace (rotation replaces it).
create unique index credentials_one_personal_key on credentials (company_id, user_id)
  where kind = 'personal' and revoked_at is null and replaced_at is null;
create index credentials_family_idx on credentials (company_id, family_id);

-- Idempotency-Key records (Stripe's model): a replay within 24 h returns the first response.
create table idempotency_keys (
  company_id uuid not null references companies (id) on delete cascade,
  credential_key text not null,
  key text not null,
  request_hash text not null,
  permission_hash text not null,
  state text not null check (state in ('in_flight', 'completed')),
  status_code integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz not null default now(),
  primary key (company_id, credential_key, key)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);

-- Uploaded files (receipts, attachments), stored in the database so they are
-- transactional and backed up with it.
create table files (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  filename text not null check (length(filename) between 1 and 255),
  content_type text not null,
  byte_size integer not null check (byte_size >= 0),
  sha256 text not null,
  data bytea not null,
  created_at timestamptz not null default now(),
  primary key (company_id, id)
);

-- Transactional outbox: a message is recorded in the same transaction as the
-- state change that causes it; a worker delivers it with retries.
create table outbox (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  kind text not null,
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  available_at timestamptz not null default now(),
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  primary key (company_id, id)
);
create index outbox_pending_idx on outbox (available_at) where status = 'pending';

create table audit_logs (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  occurred_at timestamptz not null default now(),
  actor_user_id uuid,
  credential_id uuid,
  action text not null,
  subject_type text not null,
  subject_id uuid,
  details jsonb not null default '{}',
  primary key (company_id, id)
);
create index audit_logs_subject_idx on audit_logs (company_id, subject_type, subject_id);

-- Row-level security: the second wall behind every query's company_id filter.
alter table companies enable row level security;
create policy tenant_isolation on companies using (id = app_company()) with check (id = app_company());

alter table users enable row level security;
create policy tenant_isolation on users
  using (exists (select 1 from memberships m where m.user_id = users.id and m.company_id = app_company()));
create policy tenant_insert on users for insert with check (true);

do $$
declare t text;
begin
  foreach t in array array['memberships', 'teammate_assignments', 'credentials', 'idempotency_keys',
                           'files', 'outbox', 'audit_logs'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;
