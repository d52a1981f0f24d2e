/**
 * What is wrong with a payment's amount before it is sent, or null. An amount above what is due is
 * refused, never lowered to it: the number field used to clamp a typed 5,000 to the 4,217.78 due and
 * record the invoice as paid in full without a word. Compared in the currency's minor units (the
 * field keeps no more digits than the currency has), so no binary fraction decides it.
 */
export function paymentProblem(amount: number, due: number, currency: string): 'notPositive' | 'aboveDue' | null {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const minor = (n: number) => Math.round(n * 10 ** digits);
  if (!(minor(amount) > 0)) return 'notPositive';
  if (minor(amount) > minor(due)) return 'aboveDue';
  return null;
}
