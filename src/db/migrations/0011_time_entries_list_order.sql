-- The time entry list's order (spent_date, created_at, id, all descending), so a
-- page of a date range is read in index order instead of sorted; and a person's
-- entries in the same order (members' lists, the personal sync key, week locks).
create index time_entries_list_order_idx on time_entries (company_id, spent_date desc, created_at desc, id desc);
create index time_entries_user_list_order_idx on time_entries (company_id, user_id, spent_date desc, created_at desc, id desc);
-- The person index above serves every query the earlier (company_id, user_id, spent_date) one did.
drop index time_entries_user_date_idx;
