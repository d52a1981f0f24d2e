-- Issue 27 item 4: a person's calendar feed of their time entries and planned work,
-- at a secret URL a calendar program subscribes to (no sign-in). The token is in the
-- URL's path (calendar programs cannot send anything else), so it is stored only as
-- its SHA-256, like sessions and client links. At most one working feed per person in
-- a workspace: rotating revokes the old one and makes a new one in one transaction.

create table calendar_feeds (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  user_id uuid not null,
  token_hash bytea not null unique,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  last_fetched_at timestamptz,
  primary key (company_id, id),
  foreign key (company_id, user_id) references memberships (company_id, user_id) on delete cascade
);
create unique index calendar_feeds_one_working_idx on calendar_feeds (company_id, user_id) where revoked_at is null;

comment on table calendar_feeds is
  'Secret iCalendar feed links of a person''s own time entries and planned work (0095); the token is stored only as its SHA-256.';
comment on column calendar_feeds.revoked_at is 'When the link stopped working (revoked or rotated, 0095); null: it works.';
comment on column calendar_feeds.last_fetched_at is 'When a calendar program last read the feed (0095); null: never.';

alter table calendar_feeds enable row level security;
create policy tenant_isolation on calendar_feeds using (company_id = app_company()) with check (company_id = app_company());
