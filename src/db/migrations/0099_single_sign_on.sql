-- Issue 28 item 1: single sign-on with OpenID Connect, configured per workspace
-- (docs/decisions.md, "Single sign-on (issue 28 item 1)").

-- A workspace's identity provider: its issuer (found by discovery), the client Sheaf is
-- registered as there, the client secret sealed with SHEAF_SECRET_KEY (src/auth/secret-box.ts:
-- never returned by a route, never exported), the e-mail domains whose people may join by
-- signing in (just in time, with new_member_role), whether the workspace's people may still
-- sign in with a password, and the name the sign-in button shows.
create table single_sign_on_configs (
  company_id uuid primary key references companies (id) on delete cascade,
  issuer text not null check (length(issuer) between 1 and 2000),
  client_id text not null check (length(client_id) between 1 and 500),
  client_secret text not null check (length(client_secret) between 1 and 4000),
  allowed_domains text[] not null default '{}' check (cardinality(allowed_domains) <= 50),
  new_member_role text not null default 'member' check (new_member_role in ('member', 'manager', 'administrator')),
  allow_password_sign_in boolean not null default true,
  display_name text not null check (length(display_name) between 1 and 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- The sign-in page's question: which workspaces take people of this e-mail domain?
create index single_sign_on_configs_domains_idx on single_sign_on_configs using gin (allowed_domains);

-- Who a provider's subject is in a workspace: made at the first sign-in (by a verified
-- e-mail address, or by joining), then the only match for that subject.
create table single_sign_on_links (
  company_id uuid not null references companies (id) on delete cascade,
  issuer text not null check (length(issuer) between 1 and 2000),
  subject text not null check (length(subject) between 1 and 255),
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (company_id, issuer, subject),
  unique (company_id, issuer, user_id)
);
create index single_sign_on_links_user_idx on single_sign_on_links (user_id);

do $$
declare t text;
begin
  foreach t in array array['single_sign_on_configs', 'single_sign_on_links'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;

-- A sign-in on its way through the provider: made by the start route, used once by the
-- callback (which finds it by the hash of the state the provider hands back), valid 10
-- minutes. Account-level like two_factor_challenges (0097): there is no session and no
-- workspace principal yet, so row-level security is on with no policy, and only the
-- sign-in code reads it.
create table single_sign_on_logins (
  state_hash bytea primary key,
  company_id uuid not null references companies (id) on delete cascade,
  nonce text not null check (length(nonce) <= 200),
  code_verifier text not null check (length(code_verifier) <= 200),
  next text not null check (length(next) <= 2000),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index single_sign_on_logins_expiry_idx on single_sign_on_logins (expires_at);
alter table single_sign_on_logins enable row level security;
