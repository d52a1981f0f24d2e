-- Issue 21: a person's own profile. Display preferences per person (the web app
-- formats dates and durations and picks its language from them), and e-mail
-- changes confirmed through a one-time link sent to the new address.

-- Preferences belong to the person (the identity), not to a membership: the same
-- person sees every workspace in one language and one format.
alter table users
  add column language text not null default 'en' check (language in ('en', 'de')),
  add column date_format text not null default 'YYYY-MM-DD'
    check (date_format in ('YYYY-MM-DD', 'DD.MM.YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY')),
  add column duration_format text not null default 'h:mm' check (duration_format in ('h:mm', 'decimal'));

-- A pending e-mail change is a one-time link to the new address: it holds the
-- address, which becomes the person's only when the link is opened (once, in
-- time). users_email_key still decides, at that moment, that nobody else has it.
alter table one_time_links drop constraint one_time_links_purpose_check;
alter table one_time_links
  add constraint one_time_links_purpose_check check (purpose in ('sign_in', 'password_reset', 'email_change')),
  add column new_email text check (new_email = lower(new_email) and length(new_email) between 3 and 320),
  add constraint one_time_links_email_change_check check ((purpose = 'email_change') = (new_email is not null));
