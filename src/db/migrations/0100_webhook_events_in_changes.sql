-- Issue 26: webhook events ride on the change feed's row instead of a second row per
-- endpoint in the writing transaction. 0090 wrote one webhook_deliveries row (three
-- indexes, a uuid, the payload) per event and endpoint in every write of a workspace
-- with webhooks, on top of 0089's change row; together they cost a create 13-18 % of
-- its rate, over the issue's 15 % (docs/decisions.md, webhooks). Now the change row
-- carries the event kinds and the payload's snapshot (only when the workspace has an
-- active endpoint), so the writing transaction still records every event, and the
-- worker fans them out to the endpoints that want them, off the request path
-- (src/modules/integrations/webhooks/fan-out.ts), in the feed's transaction-safe order
-- behind a per-workspace cursor moved in the same transaction as the deliveries it makes.

-- The event kinds of this change ('time_entry.created', 'timer.started', …) and the record
-- as the change left it (as it was, for a deletion) without private notes; both null when
-- the workspace had no active endpoint. 'estimates' and 'approvals' rows exist only for
-- events: the feed does not name those types (changes/rules.ts RECORD_TYPES).
alter table changes add column events text[], add column data jsonb;
alter table changes drop constraint changes_record_type_check;
alter table changes add constraint changes_record_type_check
  check (record_type in ('time_entries', 'expenses', 'clients', 'projects', 'tasks', 'invoices', 'users', 'estimates', 'approvals'));

-- Per workspace with endpoints: the last change (feed position) whose events were fanned
-- out. Made at the horizon when the workspace's first endpoint is, gone with its last.
create table webhook_fan_out (
  company_id uuid primary key,
  xid xid8 not null,
  seq bigint not null
);
alter table webhook_fan_out enable row level security;
create policy tenant_isolation on webhook_fan_out using (company_id = app_company()) with check (company_id = app_company());

-- The change a delivery comes from (changes.seq): a record's deliveries go in this order,
-- the order its writes took their row lock in. 0 for deliveries made before this migration.
alter table webhook_deliveries add column change_seq bigint not null default 0;
drop index webhook_deliveries_record_idx;
create index webhook_deliveries_record_idx on webhook_deliveries (endpoint_id, record_id, change_seq, seq) where state = 'pending';

-- When the endpoint was on (the last 30 days of it), by the database's clock like the
-- changes' changed_at: a change gets a delivery for each endpoint that was on when it was
-- made, also when the endpoint was turned off, or off and on again, before the fan-out.
alter table webhook_endpoints add column active_periods tstzmultirange not null default '{}';
update webhook_endpoints set active_periods = case when is_active then tstzmultirange(tstzrange(created_at, null)) else tstzmultirange(tstzrange(created_at, updated_at)) end;

insert into webhook_fan_out (company_id, xid, seq)
select distinct company_id, pg_snapshot_xmin(pg_current_snapshot()), 0 from webhook_endpoints;

-- Keeps the periods and the cursor on every path that writes endpoints (web app,
-- `sheaf admin webhook`, the worker turning one off).
create function webhook_endpoint_activity() returns trigger
  language plpgsql security definer set search_path from current
as $$
begin
  if tg_op = 'DELETE' then
    if not exists (select 1 from webhook_endpoints e where e.company_id = old.company_id) then
      delete from webhook_fan_out where company_id = old.company_id;
    end if;
    return null;
  end if;
  -- Before: the new row's periods. Every change that reads this endpoint as active has a
  -- transaction id at or above the horizon now, so the cursor starts there.
  if new.is_active and (tg_op = 'INSERT' or not old.is_active) then
    new.active_periods := new.active_periods * tstzmultirange(tstzrange(now() - interval '30 days', null)) + tstzmultirange(tstzrange(now(), null));
    insert into webhook_fan_out (company_id, xid, seq) values (new.company_id, pg_snapshot_xmin(pg_current_snapshot()), 0)
    on conflict (company_id) do nothing;
  elsif not new.is_active and tg_op = 'UPDATE' and old.is_active then
    new.active_periods := new.active_periods * tstzmultirange(tstzrange(null, now()));
  end if;
  return new;
end $$;
create trigger webhook_endpoints_activity before insert or update of is_active on webhook_endpoints
  for each row execute function webhook_endpoint_activity();
create trigger webhook_endpoints_last_gone after delete on webhook_endpoints
  for each row execute function webhook_endpoint_activity();

-- 0089's function, now also naming the change's webhook events (0090's rules, unchanged).
create or replace function record_change() returns trigger
  language plpgsql security definer set search_path from current
as $$
declare
  r jsonb := to_jsonb(coalesce(new, old));
  kind text := case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end;
  before jsonb;
  -- The record's name in event kinds; null for the feed's records that have no events.
  hook text := case tg_argv[0] when 'time_entries' then 'time_entry' when 'expenses' then 'expense' when 'invoices' then 'invoice'
    when 'clients' then 'client' when 'projects' then 'project' when 'estimates' then 'estimate' when 'approvals' then 'approval' end;
  kinds text[];
  snapshot jsonb;
  rid uuid;
begin
  if tg_argv[0] = 'users' and tg_table_name = 'users' then
    insert into changes (company_id, record_type, record_id, action, user_id)
    select m.company_id, 'users', (r->>'id')::uuid, 'updated', (r->>'id')::uuid from memberships m where m.user_id = (r->>'id')::uuid;
    return null;
  end if;
  if tg_op = 'UPDATE' and tg_argv[0] in ('time_entries', 'expenses') then
    before := to_jsonb(old);
    -- Time or an expense moved to another person or project: its old viewers hear of it too
    -- (an update, which they find gone when they read it), so the change names the old pair.
    if (before->>'user_id', before->>'project_id') is distinct from (r->>'user_id', r->>'project_id') then
      insert into changes (company_id, record_type, record_id, action, user_id, project_id)
      values ((before->>'company_id')::uuid, tg_argv[0], (before->>'id')::uuid, 'updated', (before->>'user_id')::uuid, (before->>'project_id')::uuid);
    end if;
  end if;
  rid := case when tg_table_name = 'memberships' then (r->>'user_id')::uuid else (r->>'id')::uuid end;
  -- Most workspaces have no webhooks: one index probe, before any other work for them.
  if hook is not null and exists (select 1 from webhook_endpoints e where e.company_id = (r->>'company_id')::uuid and e.is_active) then
    snapshot := r - 'private_notes';
    if hook = 'approval' then
      -- Approvals move many entries at once: their events come from the audit record each
      -- transition writes, with the person as the record and the period, counts and ids as data.
      kinds := case r->>'action'
        when 'timesheet.submitted' then array['approval.submitted']
        when 'timesheet.approved' then array['approval.approved']
        when 'timesheet.rejected' then array['approval.rejected']
        when 'timesheet.approval_withdrawn' then array['approval.withdrawn'] end;
      rid := (r->>'subject_id')::uuid;
      snapshot := jsonb_build_object('user_id', r->'subject_id', 'actor_user_id', r->'actor_user_id', 'occurred_at', r->'occurred_at') || coalesce(r->'details', '{}'::jsonb);
    elsif tg_op = 'INSERT' then
      kinds := array[hook || '.created'];
      if hook = 'time_entry' and (r->>'is_running')::boolean then kinds := kinds || 'timer.started'::text; end if;
    elsif tg_op = 'DELETE' then
      kinds := array[hook || '.deleted'];
    else
      before := coalesce(before, to_jsonb(old)) - 'private_notes';
      -- Nothing an endpoint may see changed (a private note, a touch): no event.
      if (snapshot - 'updated_at') <> (before - 'updated_at') then
        kinds := array[hook || '.updated'];
        if hook = 'time_entry' and (before->>'is_running')::boolean and not (r->>'is_running')::boolean then
          kinds := kinds || 'timer.stopped'::text;
        elsif hook = 'time_entry' and not (before->>'is_running')::boolean and (r->>'is_running')::boolean then
          kinds := kinds || 'timer.started'::text;
        elsif hook in ('client', 'project') and (before->>'is_active')::boolean and not (r->>'is_active')::boolean then
          kinds := kinds || (hook || '.archived');
        elsif hook in ('invoice', 'estimate') then
          if before->>'sent_at' is null and r->>'sent_at' is not null then kinds := kinds || (hook || '.sent'); end if;
          if hook = 'invoice' and r->>'state' = 'paid' and before->>'state' is distinct from 'paid' then kinds := kinds || 'invoice.paid'::text; end if;
          if hook = 'estimate' and r->>'state' in ('accepted', 'declined') and before->>'state' is distinct from r->>'state' then
            kinds := kinds || ('estimate.' || (r->>'state'));
          end if;
        end if;
      end if;
    end if;
    if kinds is null then snapshot := null; end if;
  end if;
  -- Estimates and approvals are not in the feed: their rows exist only to carry events.
  if tg_argv[0] in ('estimates', 'approvals') and kinds is null then return null; end if;
  insert into changes (company_id, record_type, record_id, action, user_id, project_id, created_by, events, data)
  values (
    (r->>'company_id')::uuid,
    tg_argv[0],
    rid,
    kind,
    case when hook = 'approval' then rid else (r->>'user_id')::uuid end,
    case when tg_argv[0] = 'projects' then (r->>'id')::uuid else (r->>'project_id')::uuid end,
    (r->>'created_by')::uuid,
    kinds,
    snapshot
  );
  return null;
end $$;

drop trigger time_entries_webhooks on time_entries;
drop trigger expenses_webhooks on expenses;
drop trigger invoices_webhooks on invoices;
drop trigger estimates_webhooks on estimates;
drop trigger clients_webhooks on clients;
drop trigger projects_webhooks on projects;
drop trigger audit_logs_webhooks on audit_logs;
drop function enqueue_webhook_events();

create trigger estimates_changes after update on estimates for each row execute function record_change('estimates');
create trigger audit_logs_changes after insert on audit_logs for each row
  when (new.action in ('timesheet.submitted', 'timesheet.approved', 'timesheet.rejected', 'timesheet.approval_withdrawn'))
  execute function record_change('approvals');

comment on table changes is
  'The change feed (GET /api/v2/changes): one row per create, update or delete, kept for CHANGES_RETENTION_DAYS, and in workspaces with webhooks the events and payload snapshot the webhook worker fans out. Not exported by the backup (a delivery log).';
comment on table webhook_fan_out is
  'Webhooks: per workspace with endpoints, the change-feed position up to which events were fanned out into webhook_deliveries. Not exported.';
