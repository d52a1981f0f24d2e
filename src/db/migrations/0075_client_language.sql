-- Issue 21 item 12: the language a client's invoices and invoice e-mails are
-- written in (the PDF, default subjects and bodies). English for every existing
-- client, as their documents have always been.
alter table clients add column language text not null default 'en' check (language in ('en', 'de'));
