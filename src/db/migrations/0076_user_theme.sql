-- Issue 21 item 13: a person's colour theme for the web app. `system` follows the
-- device's light or dark setting; `light` and `dark` hold whatever the device says.
alter table users add column theme text not null default 'system' check (theme in ('system', 'light', 'dark'));
