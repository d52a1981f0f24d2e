-- Projects: person budgets and the indexes the projects list uses.
--
-- A project budgeted by person (budget_by = 'person') keeps each person's budget
-- on their project assignment, as a project budgeted by task keeps task budgets
-- on its task assignments. Hours or money per the project's budget_by.
alter table project_user_assignments add column budget numeric(14, 2) check (budget >= 0);

-- GET /projects is ordered by name (ignoring case), then id.
create index projects_name_idx on projects (company_id, lower(name), id);
-- The owner_id filter, and the foreign key to memberships.
create index projects_owner_idx on projects (company_id, owner_id) where owner_id is not null;
