-- Issue 28 item 2: two-factor codes (TOTP, RFC 6238) for signing in.
--
-- A second factor belongs to the person's identity, not to one workspace (a person signs
-- in once and switches workspaces), so these tables are account-level like `sessions`
-- and `sign_in_devices`: no company_id, row-level security on with no policy (tenant work
-- as sheaf_app sees none of their rows), read only by the sign-in code as the service.

-- The person's TOTP secret (base32, 160 bits). enabled_at null: set up but not yet
-- confirmed with a first code (a new setup replaces it). last_step: the time step
-- (unix seconds / 30) of the last code accepted; a code is accepted only for a later
-- step, so a code is never accepted twice (no replay within its window).
create table user_two_factor (
  user_id uuid primary key references users (id) on delete cascade,
  secret text not null check (length(secret) <= 128),
  enabled_at timestamptz,
  last_step bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Ten one-time recovery codes per person, only their SHA-256 stored; used_at once used.
create table two_factor_recovery_codes (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  code_hash bytea not null,
  created_at timestamptz not null default now(),
  used_at timestamptz,
  unique (user_id, code_hash)
);

-- A sign-in waiting for its second factor: the password (or a link, a reset, an
-- invitation) was right; 256 random bits, stored hashed, valid 5 minutes, used once.
-- It remembers how the session it leads to is opened (method, workspace, via a link).
create table two_factor_challenges (
  token_hash bytea primary key,
  user_id uuid not null references users (id) on delete cascade,
  method text not null check (length(method) <= 40),
  company_id uuid references companies (id) on delete cascade,
  via_link boolean not null default false,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index two_factor_challenges_user_idx on two_factor_challenges (user_id);
create index two_factor_challenges_expiry_idx on two_factor_challenges (expires_at);

alter table user_two_factor enable row level security;
alter table two_factor_recovery_codes enable row level security;
alter table two_factor_challenges enable row level security;

-- A workspace setting: everyone who signs in to the workspace needs a second factor;
-- a session without one may only set it up (src/auth/authenticate.ts).
alter table companies add column require_two_factor boolean not null default false;
