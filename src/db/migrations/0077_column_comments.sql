-- Issue 23 item 4: src/db/types.ts is generated from the migrated database
-- (`npm run db:types`, scripts/db-types.ts), and a column's comment becomes its
-- doc comment there. These are the notes the hand-written file carried: why a
-- column exists, or what it must never be used for. A column added later gets its
-- note with `comment on column` in its own migration.

comment on table invitations is
  'An invitation to a workspace (0051); the e-mailed token is stored only as its SHA-256.';
comment on table sign_in_devices is
  'A browser that signed in to an account (0072): only the SHA-256 of its `sheaf_device` cookie.';

comment on column companies.sender_email is 'Sender details invoices print (0052): the e-mail address.';
comment on column companies.sender_phone is 'Sender details invoices print (0052): the phone number.';
comment on column companies.tax_id is 'Sender details invoices print (0052): the tax or VAT number.';

comment on column users.password_hash is 'scrypt (src/auth/passwords.ts); null until the person sets a password.';
comment on column users.language is 'The person''s own display preferences (0070): the web app''s language.';
comment on column users.date_format is 'The person''s own display preferences (0070): how dates are shown.';
comment on column users.duration_format is 'The person''s own display preferences (0070): how durations are shown.';
comment on column users.theme is 'The person''s own display preferences (0076): the web app''s colour theme.';

comment on column credentials.last_used_at is 'Written at most once a minute by authentication (0051).';
comment on column credentials.serial is
  'Insertion order, for the API processes'' lists of working keys (0071; int8, read as a string).';

comment on column outbox.first_attempt_at is
  'When the current delivery schedule began (0060_outbox_retry_window.sql); null before the first attempt.';

comment on column one_time_links.new_email is
  'The address an email_change link sets when opened (0070); null for other purposes.';

comment on column clients.language is 'The language of the client''s invoices and invoice e-mails (src/i18n).';

comment on column project_user_assignments.budget is
  'The person''s budget when the project is budgeted by person (0004).';

comment on column time_entries.private_notes is
  'Web app only (time-web): never presented by the API, reports, backup or e-mail.';
