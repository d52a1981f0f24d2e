-- Issue 22 item 1: every credential gets a serial number in insertion order, so an
-- API process can top up its list of working keys with "the keys numbered above the
-- highest I have seen" (src/auth/valid-keys.ts) without reading the application's
-- clock (which tests move) or the whole table.
create sequence credentials_serial_seq as bigint;
alter table credentials add column serial bigint not null default nextval('credentials_serial_seq');
alter sequence credentials_serial_seq owned by credentials.serial;
create index credentials_serial_idx on credentials (serial) where revoked_at is null;
