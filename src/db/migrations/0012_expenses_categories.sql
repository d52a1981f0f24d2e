-- Expenses: category unit prices to six decimal places (LLM usage is priced per
-- token or per thousand tokens, well below a cent), the "LLM usage" category in
-- every workspace that has none (new workspaces get it from createWorkspace), the
-- expense list's order as indexes (as 0011 does for time entries), and an index
-- for "is this receipt file still used by another expense".

alter table expense_categories alter column unit_price type numeric(14, 6);

-- Ids are UUIDv7 as the application makes them: 48-bit milliseconds, then random bits.
insert into expense_categories (company_id, id, name)
select c.id,
       encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
         placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
         from 1 for 6), 52, 1), 53, 1), 'hex')::uuid,
       'LLM usage'
from companies c
where not exists (
  select 1 from expense_categories ec where ec.company_id = c.id and lower(ec.name) = lower('LLM usage')
);

create index expenses_receipt_file_idx on expenses (company_id, receipt_file_id) where receipt_file_id is not null;

-- The list's order (spent_date, created_at, id, all descending), for the workspace
-- and for one person (members' lists, week locks); the person one supersedes
-- (company_id, user_id, spent_date).
create index expenses_list_order_idx on expenses (company_id, spent_date desc, created_at desc, id desc);
create index expenses_user_list_order_idx on expenses (company_id, user_id, spent_date desc, created_at desc, id desc);
drop index expenses_user_date_idx;
