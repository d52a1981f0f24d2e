-- Issue 26 item 4: signed webhooks. Administrators register endpoints (an http(s)
-- URL, the event kinds it wants, active or not); each event is enqueued by a
-- trigger in the transaction that makes the change, one delivery per endpoint
-- that wants it, so an event is never lost and never sent for a change that
-- rolled back. The worker (src/modules/integrations/webhooks/worker.ts) signs
-- and posts them (Standard Webhooks), retries with backoff for more than a day,
-- in order per record, and disables an endpoint that keeps failing.

create table webhook_endpoints (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  url text not null check (length(url) between 1 and 2000),
  description text check (length(description) <= 500),
  events text[] not null check (cardinality(events) >= 1),
  is_active boolean not null default true,
  -- The signing secret ('whsec_' and base64): needed in clear to sign, so it is
  -- shown once when made and never again, and never exported by the backup.
  secret text not null,
  -- After a rotation the old secret signs too (a second signature) until this time.
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- Whose view of the records the payloads carry: the administrator who created (or
  -- last re-activated) the endpoint; null for the operator (`sheaf admin webhook create`).
  created_by uuid,
  -- Why the service turned it off (rules.ts DISABLED_REASONS); null when a person did, or it is on.
  disabled_reason text check (disabled_reason in ('delivery_failing', 'administrator_inactive')),
  disabled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  check ((previous_secret is null) = (previous_secret_expires_at is null))
);
-- The trigger's question, on every write of the records below: does this workspace have an active endpoint?
create index webhook_endpoints_active_idx on webhook_endpoints (company_id) where is_active;

create table webhook_deliveries (
  -- The order events were made in: per record, the worker sends in this order.
  seq bigint generated always as identity,
  company_id uuid not null,
  -- The message id (webhook-id: 'msg_' and this), the same on every attempt and resend.
  id uuid not null default gen_random_uuid(),
  -- No foreign key: a delivery is written in every writing transaction of a workspace with
  -- webhooks, and each index or key checked there is paid by that write (the issue's bound on
  -- what events may cost a create). Deleting an endpoint deletes its deliveries (service.ts).
  endpoint_id uuid not null,
  event_type text not null,
  record_type text not null,
  record_id uuid not null,
  -- The record as the change left it (as it was, for a deletion), without private notes;
  -- presenter.ts makes the payload's data of it.
  data jsonb not null,
  occurred_at timestamptz not null default now(),
  state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  first_attempt_at timestamptz,
  -- When to try (again); null: at once. A claim moves it a lease ahead.
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_status integer,
  last_error text,
  delivered_at timestamptz,
  -- Also an endpoint's delivery log, newest first.
  primary key (company_id, endpoint_id, seq)
);
-- What the worker scans across workspaces, and the per-record order it keeps; both only
-- over pending deliveries, so a delivered one leaves them.
create index webhook_deliveries_pending_idx on webhook_deliveries (seq) where state = 'pending';
create index webhook_deliveries_record_idx on webhook_deliveries (endpoint_id, record_id, seq) where state = 'pending';
-- The retention's age scan (a delivery enters it once delivered or failed, not when written).
create index webhook_deliveries_age_idx on webhook_deliveries (occurred_at) where state <> 'pending';

do $$
declare t text;
begin
  foreach t in array array['webhook_endpoints', 'webhook_deliveries'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;

-- One trigger function for every record that has events (TG_ARGV[0]: the record's
-- event name). It names the events of the change and enqueues one delivery per
-- active endpoint that wants each; a workspace without an active endpoint pays one
-- index probe. Approvals act on many entries at once: their events come from the
-- audit record each transition writes (the person as its subject, the period and
-- counts as its details). Security definer: deliveries are written whoever writes.
create function enqueue_webhook_events() returns trigger
  language plpgsql security definer set search_path from current
as $$
declare
  rtype text := tg_argv[0];
  r jsonb;
  o jsonb;
  ws uuid;
  rid uuid;
  kinds text[];
begin
  if tg_op = 'DELETE' then ws := old.company_id; else ws := new.company_id; end if;
  -- Most workspaces have no webhooks: one index probe, before any other work.
  if not exists (select 1 from webhook_endpoints e where e.company_id = ws and e.is_active) then
    return null;
  end if;
  r := to_jsonb(coalesce(new, old)) - 'private_notes';
  rid := (r->>'id')::uuid;
  if rtype = 'approval' then
    kinds := case r->>'action'
      when 'timesheet.submitted' then array['approval.submitted']
      when 'timesheet.approved' then array['approval.approved']
      when 'timesheet.rejected' then array['approval.rejected']
      when 'timesheet.approval_withdrawn' then array['approval.withdrawn']
      else array[]::text[] end;
    if cardinality(kinds) = 0 then return null; end if;
    rid := (r->>'subject_id')::uuid;
    r := jsonb_build_object('user_id', r->'subject_id', 'actor_user_id', r->'actor_user_id', 'occurred_at', r->'occurred_at') || coalesce(r->'details', '{}'::jsonb);
  elsif tg_op = 'INSERT' then
    kinds := array[rtype || '.created'];
    if rtype = 'time_entry' and (r->>'is_running')::boolean then kinds := kinds || 'timer.started'::text; end if;
  elsif tg_op = 'DELETE' then
    kinds := array[rtype || '.deleted'];
  else
    o := to_jsonb(old) - 'private_notes';
    -- Nothing an endpoint may see changed (a private note, a touch): no event.
    if (r - 'updated_at') = (o - 'updated_at') then return null; end if;
    kinds := array[rtype || '.updated'];
    if rtype = 'time_entry' and (o->>'is_running')::boolean and not (r->>'is_running')::boolean then
      kinds := kinds || 'timer.stopped'::text;
    elsif rtype = 'time_entry' and not (o->>'is_running')::boolean and (r->>'is_running')::boolean then
      kinds := kinds || 'timer.started'::text;
    elsif rtype in ('client', 'project') and (o->>'is_active')::boolean and not (r->>'is_active')::boolean then
      kinds := kinds || (rtype || '.archived');
    elsif rtype in ('invoice', 'estimate') then
      if o->>'sent_at' is null and r->>'sent_at' is not null then kinds := kinds || (rtype || '.sent'); end if;
      if rtype = 'invoice' and r->>'state' = 'paid' and o->>'state' is distinct from 'paid' then kinds := kinds || 'invoice.paid'::text; end if;
      if rtype = 'estimate' and r->>'state' in ('accepted', 'declined') and o->>'state' is distinct from r->>'state' then
        kinds := kinds || ('estimate.' || (r->>'state'));
      end if;
    end if;
  end if;
  insert into webhook_deliveries (company_id, endpoint_id, event_type, record_type, record_id, data)
  select ws, e.id, k.event, rtype, rid, r
  from unnest(kinds) with ordinality as k(event, n)
  join webhook_endpoints e on e.company_id = ws and e.is_active and k.event = any(e.events)
  order by k.n, e.id;
  return null;
end $$;

create trigger time_entries_webhooks after insert or update or delete on time_entries for each row execute function enqueue_webhook_events('time_entry');
create trigger expenses_webhooks after insert or update or delete on expenses for each row execute function enqueue_webhook_events('expense');
create trigger invoices_webhooks after insert or update or delete on invoices for each row execute function enqueue_webhook_events('invoice');
create trigger estimates_webhooks after update on estimates for each row execute function enqueue_webhook_events('estimate');
create trigger clients_webhooks after insert or update or delete on clients for each row execute function enqueue_webhook_events('client');
create trigger projects_webhooks after insert or update or delete on projects for each row execute function enqueue_webhook_events('project');
create trigger audit_logs_webhooks after insert on audit_logs for each row
  when (new.action in ('timesheet.submitted', 'timesheet.approved', 'timesheet.rejected', 'timesheet.approval_withdrawn'))
  execute function enqueue_webhook_events('approval');

comment on table webhook_endpoints is
  'Webhook endpoints (src/modules/integrations/webhooks): exported by the backup without secret or previous_secret.';
comment on table webhook_deliveries is
  'Webhook deliveries: one per event and endpoint, the delivery log; kept 30 days after delivery or failure, never exported. data holds numbers as JSON numbers: the worker reads them as text (queries.ts claimDue), so money keeps its digits.';
