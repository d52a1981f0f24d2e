-- Issue 25 item 10: what an EN 16931 e-invoice needs of the seller and the buyer
-- beyond what the PDF prints from free text.
--
-- The PDF prints the workspace's and the client's address as the free text they
-- hold (0052, spec). An e-invoice needs the address in parts, the country as an
-- ISO 3166-1 alpha-2 code above all (BT-40, BT-55), and XRechnung also the city
-- and post code (BR-DE-3/4/8/9), a seller contact (BR-DE-5) and the buyer's
-- routing reference (Leitweg-ID, BT-10). A line without tax needs the reason for
-- the exemption (BR-E-10). All optional here: the e-invoice routes name what is
-- missing (src/modules/billing/e-invoices/rules.ts), nothing else requires them.
alter table invoice_settings add column street text check (length(street) between 1 and 255);
alter table invoice_settings add column postal_code text check (length(postal_code) between 1 and 20);
alter table invoice_settings add column city text check (length(city) between 1 and 100);
alter table invoice_settings add column country_code text check (country_code ~ '^[A-Z]{2}$');
alter table invoice_settings add column contact_name text check (length(contact_name) between 1 and 255);
alter table invoice_settings add column vat_exemption_reason text check (length(vat_exemption_reason) between 1 and 255);

comment on column invoice_settings.street is 'The seller''s street for e-invoices (BT-35; 0087).';
comment on column invoice_settings.country_code is 'The seller''s country, ISO 3166-1 alpha-2 (BT-40; 0087).';
comment on column invoice_settings.contact_name is 'The seller''s contact person for e-invoices (BT-41; 0087).';
comment on column invoice_settings.vat_exemption_reason is 'Why lines without tax are exempt (BT-120), e.g. a small-business rule (0087).';

alter table clients add column street text check (length(street) between 1 and 255);
alter table clients add column postal_code text check (length(postal_code) between 1 and 20);
alter table clients add column city text check (length(city) between 1 and 100);
alter table clients add column country_code text check (country_code ~ '^[A-Z]{2}$');
alter table clients add column buyer_reference text check (length(buyer_reference) between 1 and 100);

comment on column clients.street is 'The client''s street for e-invoices (BT-50; 0087).';
comment on column clients.country_code is 'The client''s country, ISO 3166-1 alpha-2 (BT-55; 0087).';
comment on column clients.buyer_reference is 'The buyer''s reference on its e-invoices, e.g. a Leitweg-ID (BT-10; 0087).';
