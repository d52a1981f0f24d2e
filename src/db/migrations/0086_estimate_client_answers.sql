-- Estimates on the client's page (issue 25): a client link may show an estimate,
-- where the client accepts or declines it. An estimate may say how long it is
-- valid (the client can accept it until then), and a client's decline may say why.

alter table client_links drop constraint client_links_subject_type_check;
alter table client_links add constraint client_links_subject_type_check check (subject_type in ('invoice', 'estimate'));

alter table estimates
  add column valid_until date,
  add column decline_reason text check (length(decline_reason) <= 2000),
  add constraint estimates_valid_until_check check (valid_until is null or valid_until >= issue_date);

comment on column estimates.valid_until is
  'The last day the estimate is valid (0086): the client can accept it on its page until then; null: no limit.';
comment on column estimates.decline_reason is
  'Why the client declined, as typed on its page (0086); null: none given, or not declined. Reopening clears it.';
