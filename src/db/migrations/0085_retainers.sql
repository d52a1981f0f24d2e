-- Retainers (issue 25 item 8): a client's prepaid funds. A retainer invoice (an
-- ordinary invoice with one funding line linked to the retainer) adds funds once
-- it is paid; later invoices of the client draw from them with a credit line
-- linked to the retainer. Nothing is cached: the balance is retainer_balance()
-- below, the one definition, over the linked lines and their invoices' states, so
-- a deleted payment, a voided invoice or a removed credit line is reflected at
-- once. The service locks the retainer row (FOR UPDATE) before drawing, so two
-- draws at once cannot both spend the same funds.

create table retainers (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  client_id uuid not null,
  name text not null check (length(name) between 1 and 255),
  description text check (length(description) <= 10000),
  currency char(3) not null check (currency ~ '^[A-Z]{3}$'),
  created_by uuid,
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, client_id) references clients (company_id, id)
);
create index retainers_client_idx on retainers (company_id, client_id);

alter table retainers enable row level security;
create policy tenant_isolation on retainers using (company_id = app_company()) with check (company_id = app_company());

comment on table retainers is 'A client''s prepaid funds (0085); the balance is retainer_balance(), never stored.';
comment on column retainers.currency is 'The retainer''s currency (0085): its funding and credit lines are on invoices in this currency only.';
comment on column retainers.archived_at is 'When the retainer was archived (0085), only at a balance of 0; null while active.';

-- A line linked to a retainer: a funding line (effect charge, on the retainer
-- invoice) or a credit line (effect credit, drawing on it). Both are one unit at
-- the amount, untaxed; the service refuses edits of their amount or kind.
alter table invoice_line_items add column retainer_id uuid;
alter table invoice_line_items
  add constraint invoice_line_items_retainer_fkey foreign key (company_id, retainer_id) references retainers (company_id, id),
  add constraint invoice_line_items_retainer_line check (retainer_id is null or (quantity = 1 and not taxed and not taxed2));
create index invoice_line_items_retainer_idx on invoice_line_items (company_id, retainer_id) where retainer_id is not null;

comment on column invoice_line_items.retainer_id is
  'The retainer this line funds (effect charge) or draws on (effect credit) (0085); null for every other line.';

-- The balance: funding lines of paid invoices minus credit lines of invoices that
-- are not voided (a draft's credit holds the funds until the draft is deleted or
-- the line removed). Funding lines of draft, open or closed invoices are not funds.
create function retainer_balance(p_company uuid, p_retainer uuid)
  returns numeric language sql stable as $$
  select coalesce(sum(case
           when l.effect = 'charge' and i.state = 'paid' then l.quantity * l.unit_price
           when l.effect = 'credit' and i.state <> 'voided' then -(l.quantity * l.unit_price)
           else 0 end), 0)
  from invoice_line_items l
  join invoices i on i.company_id = l.company_id and i.id = l.invoice_id
  where l.company_id = p_company and l.retainer_id = p_retainer
$$;
