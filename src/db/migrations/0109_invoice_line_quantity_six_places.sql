-- An imported time line's quantity is its entries' hours as the entries show them (six places,
-- `rounded_hours`), no longer rounded to four: a detailed import bills each entry exactly what the
-- uninvoiced report counts for it (0.333333 h at 95.99 is 32.00, where 0.3333 h was 31.99).
-- Explicit lines still take at most four places (the API's rule, unchanged); stored values keep
-- their digits (widening the scale changes no amount).
alter table invoice_line_items alter column quantity type numeric(18, 6);
comment on column invoice_line_items.quantity is
  'Not negative. Explicit lines: at most four places (the API checks); imported time: the entries'' rounded hours summed, six places (0109).';
