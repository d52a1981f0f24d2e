-- Issue 22 item 4: a stranger cannot lock a person out of sign-in.
--
-- A browser that signed in to an account gets a long-lived random `sheaf_device`
-- cookie; the table keeps its SHA-256 with the account. Sign-ins from a known
-- device are throttled per (account, device) only, so failures from elsewhere
-- never lock that device out (src/auth/sign-in-throttle.ts). One browser may be
-- known for several accounts (one row each).
create table sign_in_devices (
  token_hash bytea not null,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_used_at timestamptz not null default now(),
  primary key (token_hash, user_id)
);
create index sign_in_devices_user_idx on sign_in_devices (user_id);

-- The failures are now counted per (account, address), per address, per account
-- (a longer window, unknown devices only) and per (account, device).
alter table sign_in_failures drop constraint sign_in_failures_scope_check;
alter table sign_in_failures add constraint sign_in_failures_scope_check
  check (scope in ('account', 'address', 'account_address', 'device'));

-- Like sessions: tenant work (the sheaf_app role) sees no row of it.
alter table sign_in_devices enable row level security;
