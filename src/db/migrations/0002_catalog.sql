-- Catalog: clients and their contacts, workspace tasks, projects, who is assigned
-- to a project (and who manages it), which tasks a project uses, and the
-- effective-dated billable and cost rates that price work by its date.

create table clients (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null check (length(name) between 1 and 255),
  address text check (length(address) <= 2000),
  -- null: the workspace currency
  currency char(3) check (currency ~ '^[A-Z]{3}$'),
  payment_terms text check (payment_terms in ('upon_receipt', 'net_15', 'net_30', 'net_45', 'net_60', 'custom')),
  payment_days integer check (payment_days between 0 and 365),
  tax numeric(7, 4) check (tax between 0 and 100),
  tax2 numeric(7, 4) check (tax2 between 0 and 100),
  discount numeric(7, 4) check (discount between 0 and 100),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  -- `custom` takes payment_days; any other term (or none) refuses them
  check ((payment_terms is not distinct from 'custom') = (payment_days is not null))
);
create unique index clients_name_key on clients (company_id, lower(name));
create index clients_updated_idx on clients (company_id, updated_at);

create table contacts (
  company_id uuid not null,
  id uuid not null,
  client_id uuid not null,
  first_name text not null check (length(first_name) between 1 and 255),
  last_name text not null default '' check (length(last_name) <= 255),
  title text check (length(title) <= 255),
  email text check (length(email) <= 320),
  phone_office text check (length(phone_office) <= 64),
  phone_mobile text check (length(phone_mobile) <= 64),
  fax text check (length(fax) <= 64),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, client_id) references clients (company_id, id) on delete cascade
);
create index contacts_client_idx on contacts (company_id, client_id);

create table tasks (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null check (length(name) between 1 and 255),
  billable_by_default boolean not null default true,
  default_hourly_rate numeric(12, 2) check (default_hourly_rate >= 0),
  -- assigned to new projects created without task_ids
  is_default boolean not null default false,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id)
);
create unique index tasks_name_key on tasks (company_id, lower(name));

create table projects (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  client_id uuid not null,
  name text not null check (length(name) between 1 and 255),
  code text check (length(code) <= 64),
  notes text check (length(notes) <= 10000),
  owner_id uuid,
  is_active boolean not null default true,
  -- billing
  is_billable boolean not null default true,
  bill_by text not null default 'project' check (bill_by in ('project', 'tasks', 'people', 'none')),
  is_fixed_fee boolean not null default false,
  fee numeric(14, 2) check (fee >= 0),
  cost_budget numeric(14, 2) check (cost_budget >= 0),
  -- budget
  budget_by text not null default 'none' check (budget_by in ('project', 'project_cost', 'task', 'task_fees', 'person', 'none')),
  budget numeric(14, 2) check (budget >= 0),
  budget_is_monthly boolean not null default false,
  show_budget_to_all boolean not null default false,
  starts_on date,
  ends_on date,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, client_id) references clients (company_id, id),
  foreign key (company_id, owner_id) references memberships (company_id, user_id),
  check (ends_on >= starts_on),
  check (not is_fixed_fee or fee is not null)
);
create index projects_client_idx on projects (company_id, client_id);
create index projects_updated_idx on projects (company_id, updated_at);

-- Who may track time on a project, and who manages it.
create table project_user_assignments (
  company_id uuid not null,
  project_id uuid not null,
  user_id uuid not null,
  is_project_manager boolean not null default false,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, project_id, user_id),
  foreign key (company_id, project_id) references projects (company_id, id) on delete cascade,
  foreign key (company_id, user_id) references memberships (company_id, user_id) on delete cascade
);
create index project_user_assignments_user_idx on project_user_assignments (company_id, user_id, project_id)
  where is_active;

-- Which tasks a project uses; the assignment carries the task budget.
create table project_task_assignments (
  company_id uuid not null,
  project_id uuid not null,
  task_id uuid not null,
  is_active boolean not null default true,
  billable boolean not null default true,
  budget numeric(14, 2) check (budget >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, project_id, task_id),
  foreign key (company_id, project_id) references projects (company_id, id) on delete cascade,
  foreign key (company_id, task_id) references tasks (company_id, id)
);
create index project_task_assignments_task_idx on project_task_assignments (company_id, task_id);

-- Effective-dated hourly rates. The scope is given by which ids are set:
--   billable, project_id            the project's rate (bill_by = project)
--   billable, project_id + task_id  a task assignment's rate (bill_by = tasks)
--   billable, project_id + user_id  a person's rate on a project (bill_by = people)
--   billable, user_id               a person's default billable rate
--   cost,     user_id               a person's internal cost rate
-- A rate row applies from effective_from until the next row of the same scope, so
-- a change never reprices work dated before it.
create table rates (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  kind text not null check (kind in ('billable', 'cost')),
  project_id uuid,
  task_id uuid,
  user_id uuid,
  effective_from date not null,
  hourly_rate numeric(12, 2) not null check (hourly_rate >= 0),
  created_at timestamptz not null default now(),
  primary key (company_id, id),
  foreign key (company_id, project_id) references projects (company_id, id) on delete cascade,
  foreign key (company_id, task_id) references tasks (company_id, id) on delete cascade,
  foreign key (company_id, user_id) references memberships (company_id, user_id) on delete cascade,
  check (
    (kind = 'cost' and user_id is not null and project_id is null and task_id is null)
    or (kind = 'billable' and (
      (project_id is not null and task_id is null and user_id is null)
      or (project_id is not null and task_id is not null and user_id is null)
      or (project_id is not null and task_id is null and user_id is not null)
      or (project_id is null and task_id is null and user_id is not null)))
  ),
  unique nulls not distinct (company_id, kind, project_id, task_id, user_id, effective_from)
);
create index rates_lookup_idx on rates (company_id, kind, project_id, task_id, user_id, effective_from desc);

-- The rate of one scope in force on a date (null when none).
create function effective_rate(p_company uuid, p_kind text, p_project uuid, p_task uuid, p_user uuid, p_date date)
  returns numeric language sql stable as $$
  select r.hourly_rate from rates r
  where r.company_id = p_company and r.kind = p_kind
    and r.project_id is not distinct from p_project
    and r.task_id is not distinct from p_task
    and r.user_id is not distinct from p_user
    and r.effective_from <= p_date
  order by r.effective_from desc
  limit 1
$$;

-- The billable hourly rate for work by a person on a project's task on a date,
-- following the project's bill_by; null for non-billable projects.
create function billable_rate(p_company uuid, p_project uuid, p_task uuid, p_user uuid, p_date date)
  returns numeric language sql stable as $$
  select case p.bill_by
    when 'project' then effective_rate(p_company, 'billable', p_project, null, null, p_date)
    when 'tasks' then effective_rate(p_company, 'billable', p_project, p_task, null, p_date)
    when 'people' then coalesce(effective_rate(p_company, 'billable', p_project, null, p_user, p_date),
                                effective_rate(p_company, 'billable', null, null, p_user, p_date))
  end
  from projects p
  where p.company_id = p_company and p.id = p_project and p.is_billable
$$;

do $$
declare t text;
begin
  foreach t in array array['clients', 'contacts', 'tasks', 'projects', 'project_user_assignments',
                           'project_task_assignments', 'rates'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;
