-- Issue 25 item 1: a workspace's invoice settings, and a client's VAT id and
-- invoice e-mail address.
--
-- One row per workspace, written the first time the settings are saved; a
-- workspace without a row has the defaults below, which keep the behaviour from
-- before (the workspace's name on the PDF, all-digit numbers, no default texts).
-- The address, tax id and sender e-mail/phone stay on `companies` (0052): one
-- source for each fact, edited on the workspace settings.
create table invoice_settings (
  company_id uuid not null primary key references companies (id) on delete cascade,
  legal_name text check (length(legal_name) between 1 and 255),
  vat_id text check (length(vat_id) between 1 and 50),
  registration_number text check (length(registration_number) between 1 and 100),
  logo_file_id uuid,
  default_payment_term text check (default_payment_term in ('upon_receipt', 'net_15', 'net_30', 'net_45', 'net_60', 'custom')),
  default_payment_days integer check (default_payment_days between 0 and 365),
  default_notes text check (length(default_notes) between 1 and 10000),
  footer text check (length(footer) between 1 and 2000),
  number_format text check (length(number_format) between 1 and 40),
  next_number integer not null default 1 check (next_number between 1 and 999999999),
  yearly_reset boolean not null default false,
  number_year integer check (number_year between 1 and 9999),
  updated_at timestamptz not null default now(),
  check ((default_payment_term = 'custom') = (default_payment_days is not null)),
  foreign key (company_id, logo_file_id) references files (company_id, id)
);

alter table invoice_settings enable row level security;
create policy tenant_isolation on invoice_settings using (company_id = app_company()) with check (company_id = app_company());

comment on table invoice_settings is
  'A workspace''s invoice settings (0079); no row means the defaults (src/modules/billing/invoice-settings).';
comment on column invoice_settings.legal_name is 'The seller''s name on invoices; null prints the workspace name.';
comment on column invoice_settings.logo_file_id is 'The logo (PNG, JPEG or sanitized SVG) in `files`.';
comment on column invoice_settings.footer is 'Printed at the foot of every page of every invoice PDF.';
comment on column invoice_settings.number_format is
  'Pattern of new invoice numbers with {YYYY} (issue year) and {N…} (sequence, zero-padded); null: the next all-digit number.';
comment on column invoice_settings.next_number is 'The sequence number the next invoice gets (at least; a taken one is skipped).';
comment on column invoice_settings.number_year is 'The issue year `next_number` belongs to (yearly reset starts at 1 in a later year).';

alter table clients add column vat_id text check (length(vat_id) between 1 and 50);
alter table clients add column invoice_email text check (length(invoice_email) between 3 and 320);
comment on column clients.vat_id is 'The client''s VAT id, printed on its invoices (0079).';
comment on column clients.invoice_email is 'The address the client wants invoices sent to (0079).';
