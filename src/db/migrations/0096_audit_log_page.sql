-- Issue 28 item 4: the audit page (src/modules/workspace/audit) lists a workspace's
-- audit log newest first, a page at a time after the last row shown (keyset on
-- occurred_at, id), and filters it by the acting person. Without these indexes every
-- page would sort the workspace's whole log; the existing index serves a subject's history.
create index audit_logs_time_idx on audit_logs (company_id, occurred_at desc, id desc);
create index audit_logs_actor_idx on audit_logs (company_id, actor_user_id, occurred_at desc, id desc);
