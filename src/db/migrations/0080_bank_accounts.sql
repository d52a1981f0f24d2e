-- Bank accounts and payment details (issue 25 item 2): the accounts a workspace
-- prints on its invoices, one default per currency. An account is an IBAN (in
-- electronic format: no spaces, upper case; checked by ibantools in
-- src/modules/billing/bank-accounts/rules.ts), a free-form local account (a UK sort
-- code and account number, a US routing and account number), or both.
-- Display details only: nothing here is a secret (the invoice prints all of it).

create table bank_accounts (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  holder text not null check (length(holder) between 1 and 70),
  iban text check (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
  bic text check (bic ~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$'),
  bank_name text check (length(bank_name) between 1 and 140),
  local_account text check (length(local_account) between 1 and 500),
  is_default boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  check (iban is not null or local_account is not null)
);

-- One default per currency, whatever runs at once: the service also serialises its
-- writes per workspace, and this index is the wall behind it.
create unique index bank_accounts_default_key on bank_accounts (company_id, currency) where is_default;
create index bank_accounts_currency_idx on bank_accounts (company_id, currency, created_at);

alter table bank_accounts enable row level security;
create policy tenant_isolation on bank_accounts using (company_id = app_company()) with check (company_id = app_company());

comment on table bank_accounts is 'Bank accounts invoices print as payment details (0080); display details, no secrets.';
comment on column bank_accounts.holder is 'The account holder (the SEPA beneficiary name: at most 70 characters).';
comment on column bank_accounts.iban is 'IBAN in electronic format (no spaces, upper case), validated by ibantools; null for a local account only.';
comment on column bank_accounts.local_account is 'Free-form local account details (sort code and number, routing and number), printed as written.';
comment on column bank_accounts.is_default is 'The account invoices in its currency print; at most one per currency (bank_accounts_default_key).';
