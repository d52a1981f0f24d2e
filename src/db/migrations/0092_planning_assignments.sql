-- Issue 26 item 2: planning. An assignment plans a person, or a placeholder (a
-- role still to be staffed, e.g. "Senior designer"), on a project for a date
-- range: hours per day, or a total spread over the range's working days
-- (src/modules/planning/assignments/rules.ts). Deleting soft-deletes: the planner
-- hides it, the backup keeps it. A placeholder is later replaced by a person: its
-- assignments move to them.

create table planning_placeholders (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null check (length(name) between 1 and 200),
  -- The weekly hours the role stands for, Monday to Friday (capacity in the planner).
  weekly_hours numeric(5, 2) not null default 40 check (weekly_hours between 0 and 168),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id)
);

create table planning_assignments (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  project_id uuid not null,
  user_id uuid,
  placeholder_id uuid,
  starts_on date not null,
  ends_on date not null,
  hours_per_day numeric(4, 2) check (hours_per_day > 0 and hours_per_day <= 24),
  total_hours numeric(8, 2) check (total_hours > 0),
  notes text check (length(notes) <= 2000),
  created_by uuid,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  check ((user_id is null) <> (placeholder_id is null)),
  check ((hours_per_day is null) <> (total_hours is null)),
  check (ends_on >= starts_on),
  foreign key (company_id, project_id) references projects (company_id, id) on delete cascade,
  foreign key (company_id, user_id) references memberships (company_id, user_id) on delete cascade,
  foreign key (company_id, placeholder_id) references planning_placeholders (company_id, id) on delete cascade
);
create index planning_assignments_range_idx on planning_assignments (company_id, starts_on, ends_on) where deleted_at is null;
create index planning_assignments_project_idx on planning_assignments (company_id, project_id) where deleted_at is null;

do $$
declare t text;
begin
  foreach t in array array['planning_placeholders', 'planning_assignments'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;
