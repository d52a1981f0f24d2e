-- The web app's administration: invitations by e-mail, and when each API key was
-- last used (shown on Settings -> API and Developers).

-- An invitation to join a workspace with a role. The e-mailed link carries 256
-- random bits; only their SHA-256 is stored, and a resend replaces it (the older
-- link stops working). Accepted, revoked and expired ones stay as the record of
-- who was invited by whom (the backup exports them, never the hash).
-- token_hash is unique on its own: accepting looks the link up before the
-- workspace is known (as the service, like sessions and one-time links).
create table invitations (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  token_hash bytea not null unique,
  email text not null check (email = lower(email) and length(email) between 3 and 320),
  role text not null check (role in ('owner', 'administrator', 'manager', 'member', 'client')),
  permissions text[] not null default '{}' check (
    permissions <@ array['edit_projects', 'edit_clients_and_tasks', 'view_billable_rates',
                         'view_invoices', 'approve_managed_projects', 'view_internal_costs']::text[]
  ),
  is_contractor boolean not null default false,
  invited_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_user_id uuid references users (id) on delete set null,
  revoked_at timestamptz,
  primary key (company_id, id),
  check (accepted_at is null or revoked_at is null)
);
create index invitations_email_idx on invitations (company_id, email);

alter table invitations enable row level security;
create policy tenant_isolation on invitations using (company_id = app_company()) with check (company_id = app_company());

-- Written at most once a minute per key by authentication (src/auth/authenticate.ts).
alter table credentials add column last_used_at timestamptz;
