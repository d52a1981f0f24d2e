-- Issue 13: a rate given when its project, task assignment or person's project
-- assignment is created applies to all of their work, whatever its date; only a
-- later change is effective-dated. The services now write such a rate from
-- '-infinity' (FROM_THE_START, src/modules/rates/rules.ts). Before, they wrote
-- it from the creation day in the workspace zone (a new project: from its start
-- date when that was earlier), so work dated before it had no rate.
--
-- This moves those rows to '-infinity': the first billable rate of each project
-- scope (project; project + task; project + person) that was written with its
-- scope (within five minutes of the project's, the task assignment's or the
-- person assignment's creation) and from the date the old code chose. A first
-- rate given later, or at creation with an explicit other date, keeps its date.
-- Person default and cost rates are never given at creation and do not move.
update rates r set effective_from = '-infinity'
from (
  select distinct on (f.company_id, f.project_id, f.task_id, f.user_id) f.company_id, f.id
  from rates f
  where f.kind = 'billable' and f.project_id is not null
  order by f.company_id, f.project_id, f.task_id, f.user_id, f.effective_from
) first_rate
join rates f on f.company_id = first_rate.company_id and f.id = first_rate.id
join projects p on p.company_id = f.company_id and p.id = f.project_id
join companies co on co.id = f.company_id
left join project_task_assignments pta
  on f.task_id is not null and pta.company_id = f.company_id and pta.project_id = f.project_id and pta.task_id = f.task_id
left join project_user_assignments pua
  on f.user_id is not null and pua.company_id = f.company_id and pua.project_id = f.project_id and pua.user_id = f.user_id
cross join lateral (
  select case when f.task_id is not null then pta.created_at when f.user_id is not null then pua.created_at else p.created_at end as at
) created
cross join lateral (select (created.at at time zone co.timezone)::date as day) creation
where r.company_id = f.company_id and r.id = f.id
  and f.effective_from <> '-infinity'
  and created.at is not null
  and abs(extract(epoch from (f.created_at - created.at))) < 300
  and (
    f.effective_from = creation.day
    -- the project's start date only for rates written while creating the project
    -- (its own rate and its tasks'), as the old code chose it only for those
    or (f.effective_from = least(p.starts_on, creation.day) and abs(extract(epoch from (created.at - p.created_at))) < 300)
  );

-- The stored rate of unbilled, billable entries of those projects follows
-- (billable_rate(), the one lookup), as setRate does after any rate change.
-- Billed entries keep the rate they were invoiced at. updated_at moves, so a
-- client syncing with updated_since sees the new billable_rate.
update time_entries te
set billable_rate = billable_rate(te.company_id, te.project_id, te.task_id, te.user_id, te.spent_date),
    updated_at = now()
where te.billable and not te.is_billed
  and (te.company_id, te.project_id) in (select company_id, project_id from rates where effective_from = '-infinity')
  and te.billable_rate is distinct from billable_rate(te.company_id, te.project_id, te.task_id, te.user_id, te.spent_date);
