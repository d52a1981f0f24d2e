-- The week lock (src/modules/time-entries/lock.ts) asks, on every create and change
-- of time, whether a person's week holds an approved entry. Through the person's
-- list-order index that meant visiting every entry of theirs in the week (dozens
-- of heap pages, rarely all cached, to read approval_status) to find, in an open
-- week, none. This partial index holds only approved entries, so the answer is an
-- index probe. New entries are unsubmitted and never enter it; an approval (which
-- already rewrites the row's indexed updated_at) adds the entry.
create index time_entries_approved_week_idx on time_entries (company_id, user_id, spent_date)
  where approval_status = 'approved';
