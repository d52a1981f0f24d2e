-- Issue 28 item 3: passkeys (WebAuthn credentials) to sign in with, alone or as the second factor.
--
-- Account-level like user_two_factor (0097): a passkey signs a person in to every workspace they
-- belong to, so no company_id; row-level security on with no policy, read only by the sign-in code.

-- A person's passkeys. credential_id: the authenticator's id for it (base64url, as the browser
-- sends it), unique across everyone (a discoverable sign-in finds the person by it). public_key:
-- the COSE key verifying its signatures. counter: the signature counter last seen (0 for
-- authenticators without one). name: the person's label for it ("MacBook Touch ID").
create table user_passkeys (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  credential_id text not null unique check (length(credential_id) <= 1400),
  public_key bytea not null,
  counter bigint not null default 0,
  transports text[] not null default '{}',
  device_type text not null check (device_type in ('singleDevice', 'multiDevice')),
  backed_up boolean not null default false,
  name text not null check (length(name) between 1 and 100),
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index user_passkeys_user_idx on user_passkeys (user_id);

-- A WebAuthn ceremony in progress: the random challenge the browser signs, what it is for, whose
-- it is (a registration's person; a second factor's person; null for a passkey-only sign-in,
-- where the passkey names the person), valid 5 minutes, used once.
create table webauthn_challenges (
  challenge text primary key check (length(challenge) <= 100),
  purpose text not null check (purpose in ('register', 'sign_in')),
  user_id uuid references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index webauthn_challenges_expiry_idx on webauthn_challenges (expires_at);

alter table user_passkeys enable row level security;
alter table webauthn_challenges enable row level security;
