import type { Locator } from '@playwright/test';

/**
 * Types `date` (YYYY-MM-DD) into the date field labelled `label` inside `scope`, segment by
 * segment in the order the field shows them: the person's date pattern where the language has a
 * locale for it (web/src/ui/date-order.ts), so 2026-11-01 is typed 20261101 in an English field of
 * the default pattern and 01112026 in a German one. The order is read from the segments'
 * `data-type`, as a person reads it from the placeholders.
 */
export async function typeDate(scope: Locator, label: string, date: string) {
  const [year, month, day] = date.split('-');
  const digits: Record<string, string> = { year, month, day };
  const segments = scope.getByRole('group', { name: label }).getByRole('spinbutton');
  const order = await segments.evaluateAll((els) => els.map((el) => el.getAttribute('data-type') ?? ''));
  await segments.first().click();
  await scope.page().keyboard.type(order.map((type) => digits[type] ?? '').join(''));
}
