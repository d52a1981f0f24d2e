-- An invoice's taxes are rates of a base rounded to the currency's minor unit: the flagged lines
-- less their share of the discount, rounded as the discount is (docs/decisions.md, "Review of
-- 2026-12-06, second: a tax of the printed base"). Invoices made before taxed the unrounded base,
-- which can differ by a cent; an invoice's totals must never change once it exists (it may be
-- sent, paid, booked), so those keep their rule: the column is false for every row there is now
-- and true for every invoice made from here on.
alter table invoices add column tax_base_rounded boolean not null default false;
alter table invoices alter column tax_base_rounded set default true;
comment on column invoices.tax_base_rounded is
  'true: each tax is a rate of its lines'' discounted sum rounded to the minor unit; false (invoices made before 2026-12-06): of the unrounded sum. Never changed after the invoice is made.';
