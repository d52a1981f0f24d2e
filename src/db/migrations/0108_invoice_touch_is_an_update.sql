-- Webhooks: an invoice whose lines or payments change sends invoice.updated (docs/decisions.md,
-- "Review of 2026-12-06, fourth"). Such a write changes at most the invoice row's updated_at (its
-- amounts are worked out from its lines and payments when read), which record_change took for a
-- touch and sent nothing for, though the invoice's amount or amount due had changed. Every write
-- of an invoice is now an update. record_change is 0105's with that one condition.

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
      -- Nothing an endpoint may see changed (a private note, a touch): no event. But an invoice
      -- is written alone (touchInvoice) only when what it is made of changed (a line edited, a
      -- payment recorded or removed, a retainer line added or removed): its amounts moved, which
      -- its readers see. Its updated_at cannot tell: two writes in one millisecond keep it.
      if (snapshot - 'updated_at') <> (before - 'updated_at') or hook = 'invoice' then
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
  -- A document made in steps is one event: an invoice is inserted with a pending number and
  -- gets its periods and its number before the commit, which sent an invoice.created carrying
  -- the placeholder and invoice.updated events after it. A later write of the same invoice or
  -- estimate in the same transaction folds into that transaction's change: the record as the
  -- transaction left it, with the kinds it did not carry yet ('updated' is not added to a
  -- 'created'). Only these two: other records are written once per transaction, and the probe
  -- reads this transaction's changes of the workspace, which a bulk write makes many.
  if kinds is not null and tg_op = 'UPDATE' and hook in ('invoice', 'estimate') then
    update changes c
       set data = snapshot,
           events = c.events || array(select k from unnest(kinds) k
                                       where not k = any(c.events) and not (k = hook || '.updated' and (hook || '.created') = any(c.events)))
     where c.company_id = (r->>'company_id')::uuid and c.xid = pg_current_xact_id()
       and c.record_type = tg_argv[0] and c.record_id = rid and c.events is not null;
    if found then return null; end if;
  end if;
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
