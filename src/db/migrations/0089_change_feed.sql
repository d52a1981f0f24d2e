-- Issue 26 item 5: the change feed. Every create, update and delete of the
-- records the feed names is recorded by a trigger in the transaction that makes
-- it, with that transaction's id (xid8). GET /api/v2/changes reads them in
-- (xid, seq) order, but only those of transactions older than every transaction
-- still running (pg_snapshot_xmin of the reader's snapshot): a change committed
-- late always has an xid at or above that horizon, so it is read after any
-- cursor handed out before it, never skipped (src/modules/integrations/changes/).
--
-- A change row holds what the feed's permission rules need once the record
-- itself may be gone: the person and project of time and expenses, the creator
-- of an invoice. It never holds the record's content: the feed names records,
-- their current state is read through the API's own routes.

create table changes (
  seq bigint generated always as identity primary key,
  -- No foreign key: a log, and a workspace's cascading delete fires these triggers for it.
  company_id uuid not null,
  xid xid8 not null default pg_current_xact_id(),
  record_type text not null check (record_type in ('time_entries', 'expenses', 'clients', 'projects', 'tasks', 'invoices', 'users')),
  record_id uuid not null,
  action text not null check (action in ('created', 'updated', 'deleted')),
  user_id uuid,
  project_id uuid,
  created_by uuid,
  changed_at timestamptz not null default now()
);
create index changes_feed_idx on changes (company_id, xid, seq);
-- The retention job deletes by age across workspaces.
create index changes_age_idx on changes (changed_at);

-- Per workspace, the last position (xid, seq) the retention job deleted: a cursor
-- below it may have lost changes after it, and is answered 410.
create table change_horizons (
  company_id uuid primary key,
  xid xid8 not null,
  seq bigint not null
);

do $$
declare t text;
begin
  foreach t in array array['changes', 'change_horizons'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;

-- One trigger function for every workspace table the feed names (TG_ARGV[0]: its
-- record type). Security definer, with the search path of this migration: a
-- person's name lives in users, shared by workspaces, and its change is recorded
-- for each workspace the person belongs to, which the tenant role may not write.
create function record_change() returns trigger
  language plpgsql security definer set search_path from current
as $$
declare
  r jsonb := to_jsonb(coalesce(new, old));
  kind text := case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end;
  before jsonb;
begin
  if tg_argv[0] = 'users' and tg_table_name = 'users' then
    insert into changes (company_id, record_type, record_id, action, user_id)
    select m.company_id, 'users', (r->>'id')::uuid, 'updated', (r->>'id')::uuid from memberships m where m.user_id = (r->>'id')::uuid;
    return null;
  end if;
  -- Time or an expense moved to another person or project: its old viewers hear of it too
  -- (an update, which they find gone when they read it), so the change names the old pair.
  if tg_op = 'UPDATE' and tg_argv[0] in ('time_entries', 'expenses') then
    before := to_jsonb(old);
    if (before->>'user_id', before->>'project_id') is distinct from (r->>'user_id', r->>'project_id') then
      insert into changes (company_id, record_type, record_id, action, user_id, project_id)
      values ((before->>'company_id')::uuid, tg_argv[0], (before->>'id')::uuid, 'updated', (before->>'user_id')::uuid, (before->>'project_id')::uuid);
    end if;
  end if;
  insert into changes (company_id, record_type, record_id, action, user_id, project_id, created_by)
  values (
    (r->>'company_id')::uuid,
    tg_argv[0],
    case when tg_table_name = 'memberships' then (r->>'user_id')::uuid else (r->>'id')::uuid end,
    kind,
    (r->>'user_id')::uuid,
    case when tg_argv[0] = 'projects' then (r->>'id')::uuid else (r->>'project_id')::uuid end,
    (r->>'created_by')::uuid
  );
  return null;
end $$;

create trigger time_entries_changes after insert or update or delete on time_entries for each row execute function record_change('time_entries');
create trigger expenses_changes after insert or update or delete on expenses for each row execute function record_change('expenses');
create trigger clients_changes after insert or update or delete on clients for each row execute function record_change('clients');
create trigger projects_changes after insert or update or delete on projects for each row execute function record_change('projects');
create trigger tasks_changes after insert or update or delete on tasks for each row execute function record_change('tasks');
create trigger invoices_changes after insert or update or delete on invoices for each row execute function record_change('invoices');
-- A person joins (created), changes role or state (updated) or leaves (deleted) a workspace: memberships;
-- their name or e-mail changes: users, for every workspace they belong to.
create trigger memberships_changes after insert or update or delete on memberships for each row execute function record_change('users');
create trigger users_changes after update on users for each row
  when (old.first_name is distinct from new.first_name or old.last_name is distinct from new.last_name or old.email is distinct from new.email
        or old.user_type is distinct from new.user_type)
  execute function record_change('users');

comment on table changes is
  'The change feed (GET /api/v2/changes): one row per create, update or delete, kept for CHANGES_RETENTION_DAYS. Not exported by the backup (a delivery log).';
