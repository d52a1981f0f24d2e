-- The sender details an invoice prints under the workspace's name and address:
-- a contact e-mail, a phone number and a tax (VAT) number, which many countries
-- require on an invoice. All optional.
alter table companies add column sender_email text check (length(sender_email) <= 320);
alter table companies add column sender_phone text check (length(sender_phone) <= 50);
alter table companies add column tax_id text check (length(tax_id) <= 50);
