-- Budget alerts (Harvest's "notify when over budget"): a project may ask for an e-mail to its
-- managers once its budget is a given share spent. The scheduler (reports/budget-alerts) records
-- each alert it sends here, in the transaction that enqueues the e-mail; the unique key makes a
-- second server process, or a second pass, send nothing more. An alert is one per project, budget
-- period ('all' for a budget over all time, the month 'YYYY-MM' for a monthly one), budget and
-- threshold: raising the budget or changing the threshold arms a new alert for the new figures.
alter table projects
  add column notify_when_over_budget boolean not null default false,
  add column over_budget_notification_percentage numeric(6, 2) not null default 80
    check (over_budget_notification_percentage > 0 and over_budget_notification_percentage <= 1000);

create table project_budget_alerts (
  company_id uuid not null,
  id uuid not null,
  project_id uuid not null,
  period text not null check (period = 'all' or period ~ '^\d{4}-\d{2}$'),
  budget numeric(20, 6) not null,
  percentage numeric(6, 2) not null,
  spent numeric(20, 6) not null,
  created_at timestamptz not null default now(),
  primary key (company_id, id),
  unique (company_id, project_id, period, budget, percentage),
  foreign key (company_id, project_id) references projects (company_id, id) on delete cascade
);

alter table project_budget_alerts enable row level security;
create policy tenant_isolation on project_budget_alerts using (company_id = app_company()) with check (company_id = app_company());

comment on column projects.over_budget_notification_percentage is
  'With notify_when_over_budget: the share of the budget (percent) whose spending e-mails the project''s managers once per budget period.';
