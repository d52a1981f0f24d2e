-- Issue 14: an e-mail is retried for at least three days before it is marked
-- failed (src/outbox/retry-policy.ts), counted from its first delivery attempt
-- rather than from created_at: a message queued while SMTP was not configured
-- still gets its whole window once delivery starts. Null until the worker
-- first claims the message; `sheaf admin outbox retry` clears it again, so an
-- operator's retry starts a fresh schedule. Rows already marked failed stay
-- failed (they are listed by `sheaf admin outbox list --status failed`).
alter table outbox add column first_attempt_at timestamptz;

-- The operator's view of what needs attention: failed messages, newest first.
create index outbox_failed_idx on outbox (created_at) where status = 'failed';
