-- The web app's sign-in: passwords on users, server-side browser sessions, one-time
-- links (first-start sign-in, password reset) and the record of failed sign-ins that
-- throttles guessing. None of these are tenant rows: a person signs in once and
-- switches between the workspaces they belong to, so they are read before any
-- workspace is chosen, as credentials are (as the service, never as sheaf_app).

-- scrypt, with its parameters in the stored string (src/auth/passwords.ts); null: no
-- password yet (the owner of a first start, an invited person, an agent).
alter table users add column password_hash text check (length(password_hash) <= 512);

-- A browser session: the cookie holds 256 random bits, the table only their SHA-256.
create table sessions (
  id uuid primary key,
  token_hash bytea not null unique,
  user_id uuid not null references users (id) on delete cascade,
  -- The workspace the session works in; null once that membership is gone.
  company_id uuid references companies (id) on delete set null,
  -- Bound to the session; sent back by the web app in X-CSRF-Token on every change.
  csrf_token text not null,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  -- Set when the session was opened by a one-time link: for a while such a
  -- session may set a password without typing the current one.
  via_link_at timestamptz,
  ip text,
  user_agent text check (length(user_agent) <= 512)
);
create index sessions_user_idx on sessions (user_id);

-- One-time links, stored hashed: a sign-in link (first start) or a password reset.
create table one_time_links (
  token_hash bytea primary key,
  purpose text not null check (purpose in ('sign_in', 'password_reset')),
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index one_time_links_user_idx on one_time_links (user_id, purpose);

-- Failed sign-ins, per account (an e-mail, known or not) and per client address:
-- the last quarter hour of them decides whether the next attempt is throttled.
create table sign_in_failures (
  id uuid primary key,
  scope text not null check (scope in ('account', 'address')),
  subject text not null check (length(subject) <= 400),
  failed_at timestamptz not null default now()
);
create index sign_in_failures_idx on sign_in_failures (scope, subject, failed_at);
create index sign_in_failures_age_idx on sign_in_failures (failed_at);

-- Tenant work (the sheaf_app role) never reads these: row-level security with no
-- policy shows it none of their rows. Sign-in runs as the service, which owns them.
alter table sessions enable row level security;
alter table one_time_links enable row level security;
alter table sign_in_failures enable row level security;
