-- Issue 25 items 3 and 5.
--
-- Invoice item categories: what a line's `kind` may name. Every workspace has the
-- two built-in ones, Service (the API's default kind) and Product, which cannot be
-- renamed or archived; administrators add, rename and archive others. Names are
-- unique in a workspace ignoring case, and as long as a line's kind (64). Lines
-- keep the kind text they were given: a rename or an archive changes no line.
create table invoice_item_categories (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null check (length(name) between 1 and 64),
  is_builtin boolean not null default false,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  check (is_active or not is_builtin)
);
create unique index invoice_item_categories_name_key on invoice_item_categories (company_id, lower(name));

alter table invoice_item_categories enable row level security;
create policy tenant_isolation on invoice_item_categories using (company_id = app_company()) with check (company_id = app_company());

-- The built-in two in every existing workspace (new ones get them from provisioning).
-- Ids are UUIDv7 as the application makes them: 48-bit milliseconds, then random bits.
insert into invoice_item_categories (company_id, id, name, is_builtin)
select c.id,
       encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
         placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
         from 1 for 6), 52, 1), 53, 1), 'hex')::uuid,
       b.name,
       true
from companies c
cross join (values ('Service'), ('Product')) as b (name)
where not exists (
  select 1 from invoice_item_categories x where x.company_id = c.id and lower(x.name) = lower(b.name)
);

-- How a payment was made (the web app's payment list shows it); unknown for the
-- payments recorded before, and optional.
alter table invoice_payments
  add column method text check (method in ('bank_transfer', 'card', 'cash', 'check', 'paypal', 'other'));

comment on table invoice_item_categories is 'Invoice item categories: the names a line''s kind may take (web app and sheaf admin only).';
comment on column invoice_item_categories.is_builtin is 'Service and Product: present in every workspace, never renamed or archived.';
comment on column invoice_payments.method is 'How the payment was made: bank_transfer, card, cash, check, paypal or other; null when not given.';
