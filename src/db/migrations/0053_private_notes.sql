-- Private internal notes on a time entry (issue 16): what the person or their
-- manager keeps for themselves about the work. Read and written only through the
-- web app's own routes; never in an API response, report, backup or e-mail.
-- Same limit as notes (NOTES_MAX).
alter table time_entries add column private_notes text check (length(private_notes) <= 10000);
