-- Issue 26 item 1: working capacity. A person's working pattern (hours per
-- weekday, effective from a date until the next pattern), their time off (whole
-- days, or hours per day), the workspace's public holidays (time off of nobody in
-- particular: user_id null, for everyone) and optional break rules. The approval
-- preflight's "hours below expected" and "time outside working capacity" read the
-- capacity they make (src/modules/planning/capacity/rules.ts); a person without a
-- pattern keeps memberships.expected_weekly_hours, spread over Monday to Friday.

create table planning_working_patterns (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  user_id uuid not null,
  effective_from date not null,
  monday numeric(4, 2) not null default 0 check (monday between 0 and 24),
  tuesday numeric(4, 2) not null default 0 check (tuesday between 0 and 24),
  wednesday numeric(4, 2) not null default 0 check (wednesday between 0 and 24),
  thursday numeric(4, 2) not null default 0 check (thursday between 0 and 24),
  friday numeric(4, 2) not null default 0 check (friday between 0 and 24),
  saturday numeric(4, 2) not null default 0 check (saturday between 0 and 24),
  sunday numeric(4, 2) not null default 0 check (sunday between 0 and 24),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  unique (company_id, user_id, effective_from),
  foreign key (company_id, user_id) references memberships (company_id, user_id) on delete cascade
);

create table planning_time_off (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  -- null: a public holiday of the workspace, off for everyone.
  user_id uuid,
  kind text not null check (kind in ('vacation', 'sick', 'public_holiday', 'unpaid', 'other')),
  starts_on date not null,
  ends_on date not null,
  -- Hours off on each day of the range; null: the whole days.
  hours numeric(4, 2) check (hours > 0 and hours <= 24),
  name text check (length(name) <= 200),
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (company_id, id),
  check (ends_on >= starts_on),
  check (user_id is not null or kind = 'public_holiday'),
  foreign key (company_id, user_id) references memberships (company_id, user_id) on delete cascade
);
create index planning_time_off_user_idx on planning_time_off (company_id, user_id, starts_on);

-- Break rules: [{"after_hours": "6", "break_minutes": 30}, ...]; empty: none.
alter table companies add column break_rules jsonb not null default '[]'::jsonb;

do $$
declare t text;
begin
  foreach t in array array['planning_working_patterns', 'planning_time_off'] loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy tenant_isolation on %I using (company_id = app_company()) with check (company_id = app_company())', t);
  end loop;
end $$;

comment on column companies.break_rules is 'Break rules (0091): a day with more than after_hours tracked needs break_minutes of breaks; the approval preflight warns break_missing.';
