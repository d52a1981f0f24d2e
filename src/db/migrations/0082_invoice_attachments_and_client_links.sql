-- Issue 25 items 4 and 6: files attached to an invoice, and the secret links
-- through which a client sees a sent invoice without signing in.

-- An invoice's attachment: the bytes are a `files` row (like a receipt), written
-- in the same transaction; deleting the attachment deletes its file, deleting
-- the invoice (a draft) deletes its attachments.
create table invoice_attachments (
  company_id uuid not null,
  id uuid not null,
  invoice_id uuid not null,
  file_id uuid not null,
  uploaded_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (company_id, id),
  unique (company_id, file_id),
  foreign key (company_id, invoice_id) references invoices (company_id, id) on delete cascade,
  foreign key (company_id, file_id) references files (company_id, id)
);
create index invoice_attachments_invoice_idx on invoice_attachments (company_id, invoice_id, created_at);

comment on table invoice_attachments is
  'Files attached to an invoice (0082); the bytes, name, type and size are the `files` row file_id names.';

-- Which attachments went with a message, as they were then (an attachment may be
-- removed later; the record of what was sent stays).
alter table invoice_messages add column attachments jsonb not null default '[]';
comment on column invoice_messages.attachments is
  'The invoice attachments sent with the message (0082): [{id, file_name}] as they were when it was sent.';

-- A link that shows one record (an invoice now; estimates later: subject_type) to
-- someone without an account. The e-mailed URL carries 256 random bits; only their
-- SHA-256 is stored. A record may have several links (each e-mail mints its own);
-- revoking sets revoked_at and the link stops working at once.
-- token_hash is unique on its own: the public page looks the link up before the
-- workspace is known (as invitations and sessions do).
create table client_links (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  subject_type text not null check (subject_type in ('invoice')),
  subject_id uuid not null,
  token_hash bytea not null unique,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  last_viewed_at timestamptz,
  primary key (company_id, id)
);
create index client_links_subject_idx on client_links (company_id, subject_type, subject_id);

comment on table client_links is
  'Secret links to one record for a client (0082); the token is stored only as its SHA-256.';
comment on column client_links.last_viewed_at is 'When the client last opened the page (0082); null: never.';

do $$
declare t text;
begin
  foreach t in array array['invoice_attachments', 'client_links'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;
