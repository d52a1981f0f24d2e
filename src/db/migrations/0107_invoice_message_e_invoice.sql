-- Which e-invoice went with an invoice's e-mail (attach_e_invoice), recorded with the message as
-- its other attachments are, so its history says what the client received. Messages sent before
-- this migration carry none recorded (null), as do messages that attached no e-invoice.
alter table invoice_messages add column attach_e_invoice text
  constraint invoice_messages_attach_e_invoice check (attach_e_invoice in ('facturx', 'cii', 'ubl', 'xrechnung-cii', 'xrechnung-ubl'));
comment on column invoice_messages.attach_e_invoice is
  'The e-invoice attached to the e-mail (0107): facturx (in the plain PDF''s place), cii, ubl, xrechnung-cii or xrechnung-ubl; null for none.';
